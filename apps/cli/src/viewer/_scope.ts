/**
 * @module viewer/scope
 * What the viewer shows: one repository (or every one), one person's inbox (or the
 * fleet's), and how many hours of receipts the savings chart spans.
 */
export interface ViewerScope {
  /** Scope lanes, plans and attention to this repository; default: each tool's own default. */
  readonly repoRoot?: string;
  /** With `agent`: show this session's attention_inbox; without both: the fleet view. */
  readonly sessionId?: string;
  readonly agent?: string;
  /** Hours of the savings chart (default 24, at most 720). */
  readonly savingsHours?: number;
}

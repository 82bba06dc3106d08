/**
 * @module lifecycle-hooks/decision
 * A hook's stdout after exit 0 (seed 003 "HookDecision"): empty = implicit allow;
 * a JSON object with `decision` `allow`, `deny` or `block` and an optional `reason`;
 * stdout that is not JSON is plain output (no decision, the action proceeds); a JSON
 * object with an unknown decision is logged as a non-blocking error.
 */
export type HookDecisionKind = 'allow' | 'deny' | 'block';

export interface ParsedDecision {
  /** null = no decision (a non-blocking error, or no opinion). */
  readonly decision: HookDecisionKind | null;
  readonly reason: string | null;
  /** Why the hook counted as a non-blocking error, if it did. */
  readonly error: string | null;
  /** The JSON object printed, all fields (forward-compatible). */
  readonly output: Readonly<Record<string, unknown>> | null;
}

export function parseDecision(stdout: string): ParsedDecision {
  const text = stdout.trim();
  if (text === '') return { decision: 'allow', reason: null, error: null, output: null };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { decision: null, reason: null, error: null, output: null };
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json))
    return { decision: null, reason: null, error: null, output: null };
  const output = json as Record<string, unknown>;
  const reason = typeof output.reason === 'string' ? output.reason : null;
  const decision = output.decision;
  if (decision === undefined) return { decision: 'allow', reason, error: null, output };
  if (decision === 'allow' || decision === 'deny' || decision === 'block')
    return { decision, reason, error: null, output };
  return { decision: null, reason, error: `unknown decision ${JSON.stringify(decision)}`, output };
}

/**
 * @module plans/spec-lane
 * What plans need from the spec lane, passed in: opening the spec change a plan is
 * published as (CHANGE.md and its thread on `spec/<slug>`), and archiving it when the
 * plan's last sub-task completes. The two lanes that implement it: spec-lanes.ts.
 */
import type { AutoArchiveOutcome } from '@swarm/tools';
import { specBranch } from '../specs/spec-changes';

export interface SpecChangeRequest {
  readonly repoRoot: string;
  readonly slug: string;
  readonly title: string;
  readonly problem: string;
  readonly acceptanceCriteria: readonly string[];
  readonly sessionId: string;
  readonly agent: string;
}

export interface OpenedSpecChange {
  /** The spec task thread, on `spec/<slug>`, joined by the publisher. */
  readonly taskId: number;
  /** The change document; null when none is written. */
  readonly path: string | null;
}

export interface SpecArchiveRequest {
  readonly repoRoot: string;
  readonly slug: string;
  /** The session whose completion finished the plan, and its agent. */
  readonly sessionId: string;
  readonly agent: string;
}

export interface PlanSpecLane {
  /** Opens the change and its thread; runs inside the publish transaction. */
  openChange(request: SpecChangeRequest): Promise<OpenedSpecChange>;
  /**
   * Merges and archives the change after the plan's last completion committed, and
   * records the outcome (plan-archived, plan-archive-blocked, plan-archive-error) on the
   * spec thread. Never throws. Absent: the plan has no change to archive.
   */
  autoArchive?(request: SpecArchiveRequest): Promise<AutoArchiveOutcome>;
}

export function subtaskBranch(slug: string, index: number): string {
  return `${specBranch(slug)}/sub-${index}`;
}

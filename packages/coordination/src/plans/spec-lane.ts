/**
 * @module plans/spec-lane
 * What plans need from the spec lane, passed in: opening the spec change a plan is
 * published as (its thread on `spec/<slug>`), and archiving it when the plan's last
 * sub-task completes. Without a spec lane, `threadOnlySpecLane` opens the thread only:
 * there is no change document, and auto-archive reports `skipped`.
 */
import { ensureTask, joinTask } from '@swarm/storage';
import type { DomainContext } from '../context';

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
  /** The change document, repo-relative; null when none is written. */
  readonly path: string | null;
}

export interface SpecArchiveRequest {
  readonly repoRoot: string;
  readonly slug: string;
  readonly sessionId: string;
  readonly agent: string;
}

export type SpecArchiveOutcome =
  | {
      readonly status: 'archived';
      readonly archived_path: string;
      readonly merged_root_hash: string;
      readonly applied: unknown[];
    }
  | { readonly status: 'blocked'; readonly conflicts: unknown[]; readonly applied: unknown[] };

export interface PlanSpecLane {
  /** Opens the change and its thread; runs inside the publish transaction. */
  openChange(request: SpecChangeRequest): OpenedSpecChange;
  /** Three-way merges and archives the change; may throw (reported as auto_archive 'error'). */
  archive?(request: SpecArchiveRequest): SpecArchiveOutcome;
}

/** The spec branch of a plan: its change thread. Sub-task threads hang below it. */
export function specBranch(slug: string): string {
  return `spec/${slug}`;
}

export function subtaskBranch(slug: string, index: number): string {
  return `${specBranch(slug)}/sub-${index}`;
}

/** Opens `spec/<slug>` and joins the publisher; writes no change document and cannot archive. */
export function threadOnlySpecLane(ctx: DomainContext): PlanSpecLane {
  return {
    openChange(request) {
      const now = ctx.clock.now();
      const { task } = ensureTask(
        ctx.store,
        {
          repoRoot: request.repoRoot,
          branch: specBranch(request.slug),
          title: request.title,
          createdBySession: request.sessionId,
        },
        now,
      );
      joinTask(ctx.store, task.id, request.sessionId, request.agent, now);
      return { taskId: task.id, path: null };
    },
  };
}

/**
 * @module plans/spec-lane
 * What plans need from the spec lane, passed in: opening the spec change a plan is
 * published as (CHANGE.md and its thread on `spec/<slug>`), and archiving it when the
 * plan's last sub-task completes. `specServiceLane` is the real one (SpecService);
 * without it, `threadOnlySpecLane` opens the thread only: there is no change document,
 * and auto-archive reports `skipped`.
 */
import { ensureTask, joinTask } from '@swarm/storage';
import type { AutoArchiveOutcome } from '@swarm/tools';
import type { DomainContext } from '../context';
import { specBranch } from '../specs/spec-changes';
import type { SpecService } from '../specs/spec-service';

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
  openChange(request: SpecChangeRequest): OpenedSpecChange;
  /**
   * Merges and archives the change after the plan's last completion committed, and
   * records the outcome (plan-archived, plan-archive-blocked, plan-archive-error) on the
   * spec thread. Never throws. Absent: the plan has no change to archive.
   */
  autoArchive?(request: SpecArchiveRequest): AutoArchiveOutcome;
}

export function subtaskBranch(slug: string, index: number): string {
  return `${specBranch(slug)}/sub-${index}`;
}

/** Plans published as OpenSpec changes through the spec service. */
export function specServiceLane(specs: SpecService): PlanSpecLane {
  return {
    openChange(request) {
      const opened = specs.openChange({
        repoRoot: request.repoRoot,
        slug: request.slug,
        sessionId: request.sessionId,
        agent: request.agent,
        title: request.title,
        proposal: proposalOf(request),
      });
      return { taskId: opened.task_id, path: opened.path };
    },
    autoArchive: (request) => specs.autoArchive(request),
  };
}

/** One line for CHANGE.md: the title, the problem and what "done" means. */
function proposalOf(request: SpecChangeRequest): string {
  const text = `${request.title}. ${request.problem} Acceptance: ${request.acceptanceCriteria.join('; ')}.`;
  return text.replace(/\s+/g, ' ').trim();
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

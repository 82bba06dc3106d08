/**
 * @module plans/spec-lanes
 * The spec lanes plans are published through. `specServiceLane` is the real one
 * (SpecService: CHANGE.md, archived three-way when the plan completes); without it,
 * `threadOnlySpecLane` opens the thread only: there is no change document, and
 * auto-archive reports `skipped`.
 */
import { ensureTask, joinTask } from '@swarm/storage';
import type { DomainContext } from '../context';
import { specBranch } from '../specs/spec-changes';
import type { SpecService } from '../specs/spec-service';
import type { PlanSpecLane, SpecChangeRequest } from './spec-lane';

/** Plans published as OpenSpec changes through the spec service. */
export function specServiceLane(specs: SpecService): PlanSpecLane {
  return {
    async openChange(request) {
      const opened = await specs.openChange({
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
    async openChange(request) {
      const now = ctx.clock.now();
      const { task } = await ensureTask(
        ctx.store,
        {
          repoRoot: request.repoRoot,
          branch: specBranch(request.slug),
          title: request.title,
          createdBySession: request.sessionId,
        },
        now,
      );
      await joinTask(ctx.store, task.id, request.sessionId, request.agent, now);
      return { taskId: task.id, path: null };
    },
  };
}

/**
 * @module plans/auto-archive
 * After a plan's last sub-task completes, a plan that opted in (auto_archive) has its
 * spec change merged and archived through the spec lane, which records the outcome on
 * the spec thread. The completion has already committed: whatever happens here is
 * reported, never undone. A clean archive marks the plan archived.
 */
import { markPlanArchived, type Plan } from '@swarm/storage';
import type { AutoArchiveOutcome } from '@swarm/tools';
import type { DomainContext } from '../context';
import type { PlanSpecLane } from './spec-lane';

export interface AutoArchiveRequest {
  readonly plan: Plan;
  /** Sub-tasks of the plan not completed yet. */
  readonly outstanding: number;
  readonly sessionId: string;
  readonly agent: string;
}

export async function runAutoArchive(
  ctx: DomainContext,
  specs: PlanSpecLane,
  request: AutoArchiveRequest,
): Promise<AutoArchiveOutcome> {
  const { plan } = request;
  if (!plan.autoArchive) return { status: 'skipped', reason: 'auto_archive is off for this plan' };
  if (request.outstanding > 0) {
    return { status: 'skipped', reason: `${request.outstanding} sub-task(s) still outstanding` };
  }
  if (plan.specChangePath === null || !specs.autoArchive) {
    return { status: 'skipped', reason: 'no spec change to archive: the plan was published without the spec lane' };
  }
  let outcome: AutoArchiveOutcome;
  try {
    outcome = await specs.autoArchive({
      repoRoot: plan.repoRoot,
      slug: plan.slug,
      sessionId: request.sessionId,
      agent: request.agent,
    });
  } catch (error) {
    // The lane promises not to throw; if one does, the completion still stands.
    outcome = { status: 'error', reason: error instanceof Error ? error.message : String(error) };
  }
  if (outcome.status === 'archived') await ctx.store.write(() => markPlanArchived(ctx.store, plan.id, ctx.clock.now()));
  return outcome;
}

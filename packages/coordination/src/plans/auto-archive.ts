/**
 * @module plans/auto-archive
 * After a plan's last sub-task completes, a plan that opted in (auto_archive) has its
 * spec change merged and archived through the spec lane. The completion has already
 * committed: whatever happens here is reported, never undone. The outcome is recorded
 * on the plan's spec task as plan-archived, plan-archive-blocked or plan-archive-error.
 */
import { markPlanArchived, type Plan } from '@swarm/storage';
import type { AutoArchiveOutcome } from '@swarm/tools';
import { appendObservation, type DomainContext } from '../context';
import type { PlanSpecLane } from './spec-lane';

export const PLAN_ARCHIVED_KIND = 'plan-archived';
export const PLAN_ARCHIVE_BLOCKED_KIND = 'plan-archive-blocked';
export const PLAN_ARCHIVE_ERROR_KIND = 'plan-archive-error';

export interface AutoArchiveRequest {
  readonly plan: Plan;
  /** Sub-tasks of the plan not completed yet. */
  readonly outstanding: number;
  readonly sessionId: string;
  readonly agent: string;
}

export function runAutoArchive(
  ctx: DomainContext,
  specs: PlanSpecLane,
  request: AutoArchiveRequest,
): AutoArchiveOutcome {
  const { plan } = request;
  if (!plan.autoArchive) return { status: 'skipped', reason: 'auto_archive is off for this plan' };
  if (request.outstanding > 0) {
    return { status: 'skipped', reason: `${request.outstanding} sub-task(s) still outstanding` };
  }
  if (plan.specChangePath === null || !specs.archive) {
    return { status: 'skipped', reason: 'no spec change to archive: the plan was published without the spec lane' };
  }
  const record = (kind: string, content: string, metadata: Record<string, unknown>) =>
    ctx.store.write(() =>
      appendObservation(ctx, { sessionId: request.sessionId, taskId: plan.specTaskId, kind, content, metadata }),
    );
  try {
    const outcome = specs.archive({
      repoRoot: plan.repoRoot,
      slug: plan.slug,
      sessionId: request.sessionId,
      agent: request.agent,
    });
    if (outcome.status === 'archived') {
      ctx.store.write(() => {
        markPlanArchived(ctx.store, plan.id, ctx.clock.now());
        record(PLAN_ARCHIVED_KIND, `plan ${plan.slug} archived to ${outcome.archived_path}`, {
          plan_slug: plan.slug,
          archived_path: outcome.archived_path,
          merged_root_hash: outcome.merged_root_hash,
          applied: outcome.applied,
        });
      });
      return { ...outcome };
    }
    record(
      PLAN_ARCHIVE_BLOCKED_KIND,
      `plan ${plan.slug}: auto-archive blocked by ${outcome.conflicts.length} conflict(s)`,
      {
        plan_slug: plan.slug,
        conflicts: outcome.conflicts,
        applied: outcome.applied,
      },
    );
    return { ...outcome, reason: 'three-way merge conflicts: resolve by hand, then archive' };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    record(PLAN_ARCHIVE_ERROR_KIND, `plan ${plan.slug}: auto-archive failed: ${message}`, {
      plan_slug: plan.slug,
      error: message,
    });
    return { status: 'error', reason: message };
  }
}

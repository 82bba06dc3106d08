/**
 * @module plans/subtask-lifecycle
 * Claiming and completing plan sub-tasks. A claim runs in one write transaction: the
 * status is read under SQLite's write lock (BEGIN IMMEDIATE) and changed by a guarded
 * update, so of many processes racing for one sub-task exactly one wins; the winner
 * joins the sub-task thread and claims its files. Completing releases those files and
 * makes dependants whose dependencies are all completed available; the auto-archive
 * runs after the completion has committed.
 *
 * A claim that is already lost answers without the lock: a read (WAL readers never
 * wait for the writer) that finds the sub-task claimed by someone else, completed or
 * blocked answers at once, as the locked path would have; only a sub-task that looks
 * available tries for the lock, where the status is read again. While another process
 * holds the lock the status is re-read between tries, so a loser answers as soon as
 * the winner commits instead of queueing for the lock behind the other losers.
 */
import {
  andThen,
  completeSubtask,
  holdAvailableSubtask,
  joinTask,
  type Plan,
  type PlanSubtask,
  releaseLiveClaims,
  claimSubtask as storeClaimSubtask,
  unblockSubtasks,
  upsertSession,
} from '@swarm/storage';
import {
  ColonyError,
  type SubtaskClaimResult,
  type SubtaskCompleteResult,
  type TaskPlanClaimSubtaskInput,
  type TaskPlanCompleteSubtaskInput,
} from '@swarm/tools';
import type { ClaimService } from '../claims/claim-service';
import { appendObservation, type DomainContext, ensureSession } from '../context';
import { inferIdeFromSessionId } from '../ide';
import { runAutoArchive } from './auto-archive';
import { type LocatedSubtask, locateSubtask } from './locate';
import { nextAvailable, subtaskRef } from './plan-view';
import type { PlanSpecLane } from './spec-lane';

export const PLAN_SUBTASK_CLAIM_KIND = 'plan-subtask-claim';

export async function claimPlanSubtask(
  ctx: DomainContext,
  claims: ClaimService,
  args: TaskPlanClaimSubtaskInput,
): Promise<SubtaskClaimResult> {
  // Synchronous on SQLite: it runs between the lock poll's tries (see unlessSettled).
  const settled = () => andThen(locateSubtask(ctx.store, args), (located) => settledClaim(located, args));
  const early = await ctx.store.read(settled);
  if (early) return early;
  return ctx.store.write<SubtaskClaimResult>(
    async () => {
      const located = await locateSubtask(ctx.store, args);
      const settled = settledClaim(located, args);
      if (settled) return settled;
      if (!(await holdAvailableSubtask(ctx.store, located.subtask.id))) {
        // PostgreSQL: another claimer committed since the read above (it held the row
        // while this one waited); answer as the sub-task is now, having written nothing.
        const current = await locateSubtask(ctx.store, args);
        const answer = settledClaim(current, args);
        if (answer) return answer;
        throw notAvailable(current.plan, current.subtask, current.siblings);
      }
      const { plan, subtask } = located;
      const result = { task_id: subtask.taskId, branch: subtask.branch, file_scope: subtask.fileScope };
      const now = ctx.clock.now();
      await upsertSession(
        ctx.store,
        { id: args.session_id, ide: inferIdeFromSessionId(args.session_id), agent: args.agent },
        now,
      );
      const observationId = await appendObservation(ctx, {
        sessionId: args.session_id,
        taskId: subtask.taskId,
        kind: PLAN_SUBTASK_CLAIM_KIND,
        content: `${args.agent} claimed ${subtaskRef(plan, subtask)}: ${subtask.title}`,
        metadata: {
          status: 'claimed',
          session_id: args.session_id,
          agent: args.agent,
          parent_plan_slug: plan.slug,
          subtask_index: subtask.subtaskIndex,
          file_scope: subtask.fileScope,
        },
      });
      const won = await storeClaimSubtask(
        ctx.store,
        subtask.id,
        { sessionId: args.session_id, agent: args.agent, observationId },
        now,
      );
      if (!won) {
        // SQLite read the status under its write lock, so this cannot lose there. PostgreSQL
        // writers run side by side: another one claimed it since, and the refusal names
        // the sub-task as it is now (this transaction rolls back with the throw).
        const current = await locateSubtask(ctx.store, args);
        throw notAvailable(current.plan, current.subtask, current.siblings);
      }
      await joinSubtaskThread(ctx, subtask, args.session_id, args.agent, now);
      const warnings: string[] = [];
      for (const file of subtask.fileScope) {
        const claimed = await claims.claimFile({
          task_id: subtask.taskId,
          session_id: args.session_id,
          file_path: file,
          note: `plan ${subtaskRef(plan, subtask)}`,
        });
        if (claimed.warning) warnings.push(claimed.warning);
      }
      return warnings.length > 0 ? { ...result, warnings } : result;
    },
    { unlessSettled: settled },
  );
}

export async function completePlanSubtask(
  ctx: DomainContext,
  specs: PlanSpecLane,
  args: TaskPlanCompleteSubtaskInput,
): Promise<SubtaskCompleteResult> {
  const done = await ctx.store.write(async () => {
    const { plan, subtask, siblings } = await locateSubtask(ctx.store, args);
    await ensureSession(ctx, args.session_id);
    if (subtask.status !== 'claimed') {
      throw new ColonyError(
        'PLAN_SUBTASK_NOT_CLAIMED',
        `${subtaskRef(plan, subtask)} is ${subtask.status}, not claimed: claim it with task_plan_claim_subtask first`,
        { details: { plan_slug: plan.slug, subtask_index: subtask.subtaskIndex, status: subtask.status } },
      );
    }
    if (subtask.claimedBySessionId !== args.session_id) {
      throw new ColonyError(
        'PLAN_SUBTASK_NOT_YOURS',
        `${subtaskRef(plan, subtask)} is claimed by ${subtask.claimedBySessionId} (${subtask.claimedByAgent}), not by ${args.session_id}`,
        {
          details: {
            plan_slug: plan.slug,
            subtask_index: subtask.subtaskIndex,
            claimed_by_session_id: subtask.claimedBySessionId,
            claimed_by_agent: subtask.claimedByAgent,
          },
        },
      );
    }
    const now = ctx.clock.now();
    await appendObservation(ctx, {
      sessionId: args.session_id,
      taskId: subtask.taskId,
      kind: PLAN_SUBTASK_CLAIM_KIND,
      content: args.summary,
      metadata: {
        status: 'completed',
        session_id: args.session_id,
        agent: subtask.claimedByAgent,
        parent_plan_slug: plan.slug,
        subtask_index: subtask.subtaskIndex,
        released_files: subtask.fileScope,
      },
    });
    await completeSubtask(ctx.store, subtask.id, args.session_id, now);
    await releaseLiveClaims(ctx.store, subtask.taskId, args.session_id, subtask.fileScope);
    const completed = new Set(siblings.filter((s) => s.status === 'completed').map((s) => s.subtaskIndex));
    completed.add(subtask.subtaskIndex);
    const ready = siblings.filter((s) => s.status === 'blocked' && s.dependsOn.every((d) => completed.has(d)));
    await unblockSubtasks(
      ctx.store,
      ready.map((s) => s.id),
    );
    return {
      plan,
      agent: subtask.claimedByAgent ?? '',
      unblocked: ready.map((s) => s.subtaskIndex),
      outstanding: siblings.length - completed.size,
    };
  });
  const auto_archive = await runAutoArchive(ctx, specs, {
    plan: done.plan,
    outstanding: done.outstanding,
    sessionId: args.session_id,
    agent: done.agent,
  });
  return { status: 'completed', unblocked: done.unblocked, auto_archive };
}

/**
 * The answer of a claim that needs no write: already ours (already_claimed), blocked
 * (PLAN_SUBTASK_DEPS_UNMET, thrown) or taken (PLAN_SUBTASK_NOT_AVAILABLE, thrown);
 * undefined while the sub-task is available.
 */
function settledClaim(
  { plan, subtask, siblings }: LocatedSubtask,
  args: TaskPlanClaimSubtaskInput,
): SubtaskClaimResult | undefined {
  if (subtask.status === 'claimed' && subtask.claimedBySessionId === args.session_id) {
    return { task_id: subtask.taskId, branch: subtask.branch, file_scope: subtask.fileScope, already_claimed: true };
  }
  if (subtask.status === 'blocked') {
    const unmet = subtask.dependsOn.filter((d) => siblings.find((s) => s.subtaskIndex === d)?.status !== 'completed');
    throw new ColonyError(
      'PLAN_SUBTASK_DEPS_UNMET',
      `${subtaskRef(plan, subtask)} waits on sub-task(s) ${unmet.join(', ')}: complete them first`,
      {
        details: {
          plan_slug: plan.slug,
          subtask_index: subtask.subtaskIndex,
          unmet,
          next_available: nextAvailable(siblings),
        },
      },
    );
  }
  if (subtask.status !== 'available') throw notAvailable(plan, subtask, siblings);
  return undefined;
}

function notAvailable(plan: Plan, subtask: PlanSubtask, siblings: readonly PlanSubtask[]): ColonyError {
  const by = subtask.claimedByAgent ? ` by ${subtask.claimedByAgent}` : '';
  return new ColonyError(
    'PLAN_SUBTASK_NOT_AVAILABLE',
    `${subtaskRef(plan, subtask)} is already ${subtask.status}${by}: pick one of next_available`,
    {
      details: {
        plan_slug: plan.slug,
        subtask_index: subtask.subtaskIndex,
        status: subtask.status,
        claimed_by_agent: subtask.claimedByAgent,
        next_available: nextAvailable(siblings),
      },
    },
  );
}

/** Joins the claimer to the sub-task thread (file claims need a participant). */
async function joinSubtaskThread(
  ctx: DomainContext,
  subtask: PlanSubtask,
  sessionId: string,
  agent: string,
  now: number,
) {
  await joinTask(ctx.store, subtask.taskId, sessionId, agent, now);
}

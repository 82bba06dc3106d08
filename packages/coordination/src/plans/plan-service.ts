/**
 * @module plans/plan-service
 * Plans: a multi-agent plan is published as a spec change with one task thread per
 * sub-task (`spec/<slug>/sub-<index>`); agents claim sub-tasks, which claims their
 * files, and complete them, which releases the files and unblocks dependants. Sub-task
 * state lives in `plan_subtasks`; every transition appends its observation in the same
 * transaction. Claims race safely across processes: the status check and the guarded
 * update run under SQLite's write lock (BEGIN IMMEDIATE), so exactly one claimer wins.
 */
import {
  completeSubtask,
  ensureTask,
  findPlan,
  getTask,
  insertPlan,
  insertSubtask,
  joinTask,
  listPlans,
  type Plan,
  type PlanSubtask,
  releaseLiveClaims,
  claimSubtask as storeClaimSubtask,
  subtasksForSpecRow,
  subtasksOfPlans,
  unblockSubtasks,
  upsertSession,
} from '@swarm/storage';
import {
  ColonyError,
  type PlanBackend,
  type PlanPublishResult,
  type PlanSummary,
  type PlanValidateResult,
  type SpecRowStatusResult,
  type SubtaskClaimResult,
  type SubtaskCompleteResult,
  type TaskPlanClaimSubtaskInput,
  type TaskPlanCompleteSubtaskInput,
  type TaskPlanListInput,
  type TaskPlanPublishInput,
  type TaskPlanStatusForSpecRowInput,
  type TaskPlanValidateInput,
} from '@swarm/tools';
import { ClaimService } from '../claims/claim-service';
import { appendObservation, type DomainContext, requireSession } from '../context';
import { inferIdeFromSessionId } from '../ide';
import { normalizeRepoRoot } from '../tasks/task-service';
import { runAutoArchive } from './auto-archive';
import { locateSubtask } from './locate';
import { normalizeSubtasks, validatePlan } from './plan-check';
import { checkPlanRules, computeWaves, RULE_PRECEDENCE } from './plan-rules';
import { nextAvailable, planSummary, subtaskRef } from './plan-view';
import { type PlanSpecLane, subtaskBranch, threadOnlySpecLane } from './spec-lane';

export const PLAN_CONFIG_KIND = 'plan-config';
export const PLAN_SUBTASK_KIND = 'plan-subtask';
export const PLAN_SUBTASK_CLAIM_KIND = 'plan-subtask-claim';

export interface PlanServiceOptions {
  /** The spec lane plans are published through; default: spec threads only, no change documents. */
  readonly specs?: PlanSpecLane;
}

export class PlanService implements PlanBackend {
  readonly #ctx: DomainContext;
  readonly #specs: PlanSpecLane;
  readonly #claims: ClaimService;

  constructor(ctx: DomainContext, options: PlanServiceOptions = {}) {
    this.#ctx = ctx;
    this.#specs = options.specs ?? threadOnlySpecLane(ctx);
    this.#claims = new ClaimService(ctx);
  }

  validate(args: TaskPlanValidateInput): PlanValidateResult {
    const ctx = this.#ctx;
    const repoRoot = normalizeRepoRoot(args.repo_root);
    const subtasks = normalizeSubtasks(repoRoot, args.subtasks);
    return ctx.store.read(() => validatePlan(ctx.store, repoRoot, subtasks, ctx.clock.now()));
  }

  publish(args: TaskPlanPublishInput): PlanPublishResult {
    const ctx = this.#ctx;
    const repoRoot = normalizeRepoRoot(args.repo_root);
    const subtasks = normalizeSubtasks(repoRoot, args.subtasks);
    const { errors } = checkPlanRules(subtasks);
    const code = RULE_PRECEDENCE.find((c) => errors.some((e) => e.code === c));
    if (code) {
      const first = errors.find((e) => e.code === code);
      throw new ColonyError(code, `plan "${args.slug}" refused: ${first?.message}`, { details: { errors } });
    }
    const waves = computeWaves(subtasks);
    return ctx.store.write(() => {
      const existing = findPlan(ctx.store, repoRoot, args.slug);
      if (existing) {
        throw new ColonyError(
          'PLAN_ALREADY_PUBLISHED',
          `plan "${args.slug}" is already published in ${repoRoot}: pick another slug`,
          { details: { plan_slug: args.slug, repo_root: repoRoot, spec_task_id: existing.specTaskId } },
        );
      }
      const now = ctx.clock.now();
      upsertSession(
        ctx.store,
        { id: args.session_id, ide: inferIdeFromSessionId(args.session_id), agent: args.agent },
        now,
      );
      const change = this.#specs.openChange({
        repoRoot,
        slug: args.slug,
        title: args.title,
        problem: args.problem,
        acceptanceCriteria: args.acceptance_criteria,
        sessionId: args.session_id,
        agent: args.agent,
      });
      const configId = appendObservation(ctx, {
        sessionId: args.session_id,
        taskId: change.taskId,
        kind: PLAN_CONFIG_KIND,
        content: `plan ${args.slug}: ${args.title} (${subtasks.length} sub-tasks, auto_archive ${args.auto_archive})`,
        metadata: { plan_slug: args.slug, auto_archive: args.auto_archive, subtask_count: subtasks.length },
      });
      const plan = insertPlan(
        ctx.store,
        {
          repoRoot,
          slug: args.slug,
          title: args.title,
          problem: args.problem,
          acceptanceCriteria: args.acceptance_criteria,
          specTaskId: change.taskId,
          specChangePath: change.path,
          autoArchive: args.auto_archive,
          createdBy: args.session_id,
          createdByAgent: args.agent,
          observationId: configId,
        },
        now,
      );
      const published = subtasks.map((subtask, index) => {
        const branch = subtaskBranch(args.slug, index);
        const { task } = ensureTask(
          ctx.store,
          { repoRoot, branch, title: subtask.title, createdBySession: args.session_id },
          now,
        );
        const status = subtask.depends_on.length === 0 ? 'available' : 'blocked';
        const advertId = appendObservation(ctx, {
          sessionId: args.session_id,
          taskId: task.id,
          kind: PLAN_SUBTASK_KIND,
          content: `${subtask.title}\n\n${subtask.description}`,
          metadata: {
            parent_plan_slug: args.slug,
            parent_plan_title: args.title,
            parent_spec_task_id: change.taskId,
            subtask_index: index,
            file_scope: subtask.file_scope,
            depends_on: subtask.depends_on,
            capability_hint: subtask.capability_hint,
            spec_row_id: subtask.spec_row_id,
            wave_index: waves[index] ?? 0,
            status,
          },
        });
        insertSubtask(ctx.store, {
          planId: plan.id,
          subtaskIndex: index,
          title: subtask.title,
          description: subtask.description,
          fileScope: subtask.file_scope,
          dependsOn: subtask.depends_on,
          capabilityHint: subtask.capability_hint,
          specRowId: subtask.spec_row_id,
          taskId: task.id,
          branch,
          waveIndex: waves[index] ?? 0,
          status,
          observationId: advertId,
        });
        return { subtask_index: index, branch, task_id: task.id, title: subtask.title };
      });
      return {
        plan_slug: args.slug,
        spec_task_id: change.taskId,
        spec_change_path: change.path,
        subtasks: published,
      };
    });
  }

  list(args: TaskPlanListInput): PlanSummary[] {
    const ctx = this.#ctx;
    return ctx.store.read(() => {
      const plans = listPlans(
        ctx.store,
        args.repo_root === undefined ? {} : { repoRoot: normalizeRepoRoot(args.repo_root) },
      );
      const byPlan = groupByPlan(
        subtasksOfPlans(
          ctx.store,
          plans.map((p) => p.id),
        ),
      );
      const summaries: PlanSummary[] = [];
      for (const plan of plans) {
        const summary = planSummary(plan, byPlan.get(plan.id) ?? [], getTask(ctx.store, plan.specTaskId) !== undefined);
        if (args.only_with_available_subtasks && summary.next_available.length === 0) continue;
        if (
          args.capability_match !== undefined &&
          !summary.next_available.some((s) => s.capability_hint === args.capability_match)
        ) {
          continue;
        }
        summaries.push(summary);
        if (summaries.length >= args.limit) break;
      }
      return summaries;
    });
  }

  claimSubtask(args: TaskPlanClaimSubtaskInput): SubtaskClaimResult {
    const ctx = this.#ctx;
    return ctx.store.write(() => {
      const { plan, subtask, siblings } = locateSubtask(ctx.store, args);
      const result = { task_id: subtask.taskId, branch: subtask.branch, file_scope: subtask.fileScope };
      if (subtask.status === 'claimed' && subtask.claimedBySessionId === args.session_id) {
        return { ...result, already_claimed: true as const };
      }
      if (subtask.status === 'blocked') {
        const unmet = subtask.dependsOn.filter(
          (d) => siblings.find((s) => s.subtaskIndex === d)?.status !== 'completed',
        );
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

      const now = ctx.clock.now();
      upsertSession(
        ctx.store,
        { id: args.session_id, ide: inferIdeFromSessionId(args.session_id), agent: args.agent },
        now,
      );
      const observationId = appendObservation(ctx, {
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
      const won = storeClaimSubtask(
        ctx.store,
        subtask.id,
        { sessionId: args.session_id, agent: args.agent, observationId },
        now,
      );
      // The status was read under the write lock, so this cannot lose; the guard stays as the rule.
      if (!won) throw notAvailable(plan, subtask, siblings);
      joinSubtaskThread(ctx, subtask, args.session_id, args.agent, now);
      const warnings: string[] = [];
      for (const file of subtask.fileScope) {
        const claimed = this.#claims.claimFile({
          task_id: subtask.taskId,
          session_id: args.session_id,
          file_path: file,
          note: `plan ${subtaskRef(plan, subtask)}`,
        });
        if (claimed.warning) warnings.push(claimed.warning);
      }
      return warnings.length > 0 ? { ...result, warnings } : result;
    });
  }

  completeSubtask(args: TaskPlanCompleteSubtaskInput): SubtaskCompleteResult {
    const ctx = this.#ctx;
    const done = ctx.store.write(() => {
      const { plan, subtask, siblings } = locateSubtask(ctx.store, args);
      requireSession(ctx, args.session_id);
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
      appendObservation(ctx, {
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
      completeSubtask(ctx.store, subtask.id, args.session_id, now);
      releaseLiveClaims(ctx.store, subtask.taskId, args.session_id, subtask.fileScope);
      const completed = new Set(siblings.filter((s) => s.status === 'completed').map((s) => s.subtaskIndex));
      completed.add(subtask.subtaskIndex);
      const ready = siblings.filter((s) => s.status === 'blocked' && s.dependsOn.every((d) => completed.has(d)));
      unblockSubtasks(
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
    const auto_archive = runAutoArchive(ctx, this.#specs, {
      plan: done.plan,
      outstanding: done.outstanding,
      sessionId: args.session_id,
      agent: done.agent,
    });
    return { status: 'completed', unblocked: done.unblocked, auto_archive };
  }

  statusForSpecRow(args: TaskPlanStatusForSpecRowInput): SpecRowStatusResult {
    const rows = subtasksForSpecRow(this.#ctx.store, normalizeRepoRoot(args.repo_root), args.spec_row_id);
    const row = rows.find((r) => r.status !== 'completed') ?? rows.at(-1);
    if (!row) return { spec_row_id: args.spec_row_id, binding: null, status: null };
    const binding = {
      plan_slug: row.planSlug,
      subtask_index: row.subtaskIndex,
      task_id: row.taskId,
      branch: row.branch,
      spec_row_id: args.spec_row_id,
    };
    return {
      ...binding,
      status: row.status as SpecRowStatusResult['status'] & string,
      claimed_by_session_id: row.claimedBySessionId,
      claimed_by_agent: row.claimedByAgent,
      binding,
    };
  }
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
function joinSubtaskThread(ctx: DomainContext, subtask: PlanSubtask, sessionId: string, agent: string, now: number) {
  joinTask(ctx.store, subtask.taskId, sessionId, agent, now);
}

function groupByPlan(rows: readonly PlanSubtask[]): Map<number, PlanSubtask[]> {
  const byPlan = new Map<number, PlanSubtask[]>();
  for (const row of rows) {
    const list = byPlan.get(row.planId) ?? [];
    list.push(row);
    byPlan.set(row.planId, list);
  }
  return byPlan;
}

/**
 * @module plans/plan-service
 * Plans: a multi-agent plan is published as a spec change with one task thread per
 * sub-task (`spec/<slug>/sub-<index>`); agents claim sub-tasks, which claims their
 * files, and complete them, which releases the files and unblocks dependants. Sub-task
 * state lives in `plan_subtasks`; every transition appends its observation in the same
 * transaction. The service binds the tools to publish-plan, subtask-lifecycle and the
 * read paths below.
 */
import { getTask, listPlans, type PlanSubtask, subtasksForSpecRow, subtasksOfPlans } from '@swarm/storage';
import type {
  PlanBackend,
  PlanPublishResult,
  PlanSummary,
  PlanValidateResult,
  SpecRowStatusResult,
  SubtaskClaimResult,
  SubtaskCompleteResult,
  SubtaskStatus,
  TaskPlanClaimSubtaskInput,
  TaskPlanCompleteSubtaskInput,
  TaskPlanListInput,
  TaskPlanPublishInput,
  TaskPlanStatusForSpecRowInput,
  TaskPlanValidateInput,
} from '@swarm/tools';
import { ClaimService } from '../claims/claim-service';
import type { DomainContext } from '../context';
import { normalizeRepoRoot } from '../tasks/task-service';
import { normalizeSubtasks, validatePlan } from './plan-check';
import { planSummary } from './plan-view';
import { publishPlan } from './publish-plan';
import type { PlanSpecLane } from './spec-lane';
import { threadOnlySpecLane } from './spec-lanes';
import { claimPlanSubtask, completePlanSubtask } from './subtask-lifecycle';

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

  validate(args: TaskPlanValidateInput): Promise<PlanValidateResult> {
    const ctx = this.#ctx;
    const repoRoot = normalizeRepoRoot(args.repo_root);
    const subtasks = normalizeSubtasks(repoRoot, args.subtasks);
    return ctx.store.read(() => validatePlan(ctx.store, repoRoot, subtasks, ctx.clock.now()));
  }

  publish(args: TaskPlanPublishInput): Promise<PlanPublishResult> {
    return publishPlan(this.#ctx, this.#specs, args);
  }

  claimSubtask(args: TaskPlanClaimSubtaskInput): Promise<SubtaskClaimResult> {
    return claimPlanSubtask(this.#ctx, this.#claims, args);
  }

  completeSubtask(args: TaskPlanCompleteSubtaskInput): Promise<SubtaskCompleteResult> {
    return completePlanSubtask(this.#ctx, this.#specs, args);
  }

  /** Plans newest first, filtered after the rollup (the filters read next_available). */
  list(args: TaskPlanListInput): Promise<PlanSummary[]> {
    const ctx = this.#ctx;
    return ctx.store.read(async () => {
      const plans = await listPlans(
        ctx.store,
        args.repo_root === undefined ? {} : { repoRoot: normalizeRepoRoot(args.repo_root) },
      );
      const byPlan = groupByPlan(
        await subtasksOfPlans(
          ctx.store,
          plans.map((p) => p.id),
        ),
      );
      const summaries: PlanSummary[] = [];
      for (const plan of plans) {
        const summary = planSummary(
          plan,
          byPlan.get(plan.id) ?? [],
          (await getTask(ctx.store, plan.specTaskId)) !== undefined,
        );
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

  /** The sub-task bound to a spec row: the one still in flight, else the newest. */
  async statusForSpecRow(args: TaskPlanStatusForSpecRowInput): Promise<SpecRowStatusResult> {
    const rows = await subtasksForSpecRow(this.#ctx.store, normalizeRepoRoot(args.repo_root), args.spec_row_id);
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
      status: row.status as SubtaskStatus,
      claimed_by_session_id: row.claimedBySessionId,
      claimed_by_agent: row.claimedByAgent,
      binding,
    };
  }
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

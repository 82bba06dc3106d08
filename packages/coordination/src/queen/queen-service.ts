/**
 * @module queen/queen-service
 * queen_plan_goal: the queen's deterministic decomposition of a goal, validated by the
 * plan rules and published through the plan service (auto_archive on), or returned
 * as is with dry_run. The slug is taken from the goal title; a taken slug gets -2, -3...
 */
import { findPlan, getSession } from '@swarm/storage';
import type { QueenBackend, QueenDryRun, QueenPlanGoalInput, QueenPublished } from '@swarm/tools';
import type { DomainContext } from '../context';
import type { PlanService } from '../plans/plan-service';
import { normalizeRepoPath } from '../repo-paths';
import { normalizeRepoRoot } from '../tasks/task-service';
import { capabilityMap, decomposeGoal, type QueenPlan } from './decompose-goal';

/** The agent a queen plan is published as when the session registered none. */
export const QUEEN_AGENT = 'queen';

export class QueenService implements QueenBackend {
  readonly #ctx: DomainContext;
  readonly #plans: PlanService;

  constructor(ctx: DomainContext, deps: { readonly plans: PlanService }) {
    this.#ctx = ctx;
    this.#plans = deps.plans;
  }

  async planGoal(args: QueenPlanGoalInput): Promise<QueenPublished | QueenDryRun> {
    const ctx = this.#ctx;
    const repoRoot = normalizeRepoRoot(args.repo_root);
    const goal = {
      ...args,
      repo_root: repoRoot,
      affected_files: args.affected_files.map((f) => normalizeRepoPath(repoRoot, f)),
      agent: (await getSession(ctx.store, args.session_id))?.agent ?? QUEEN_AGENT,
    };
    const run = async () => {
      const plan = decomposeGoal(goal);
      plan.slug = await this.#freeSlug(repoRoot, plan.slug);
      const plan_validation = await this.#plans.validate({ repo_root: repoRoot, subtasks: plan.subtasks });
      return { plan, plan_validation, mcp_capability_map: capabilityMap(plan.subtasks) };
    };
    if (args.dry_run) {
      const { plan, ...rest } = await ctx.store.read(run);
      return { dry_run: true, plan_slug: plan.slug, plan: { ...plan }, ...rest };
    }
    return ctx.store.write(async () => {
      const { plan, plan_validation, mcp_capability_map } = await run();
      const published = await this.#plans.publish(publishInput(plan));
      return {
        plan_slug: published.plan_slug,
        spec_task_id: published.spec_task_id,
        mcp_capability_map,
        subtasks: published.subtasks,
        plan_validation,
      };
    });
  }

  /** `slug`, or the first of slug-2, slug-3... not yet published in the repository. */
  async #freeSlug(repoRoot: string, slug: string): Promise<string> {
    let candidate = slug;
    for (let n = 2; await findPlan(this.#ctx.store, repoRoot, candidate); n++) candidate = `${slug}-${n}`;
    return candidate;
  }
}

function publishInput(plan: QueenPlan) {
  return { ...plan, agent: plan.agent ?? QUEEN_AGENT };
}

/**
 * @module plans/locate
 * Finding a plan sub-task from (plan_slug, subtask_index, optional repo_root). A slug is
 * unique per repository, so without repo_root it must name one plan only.
 */
import {
  andThen,
  type ColonyStore,
  findPlan,
  type Plan,
  type PlanSubtask,
  plansWithSlug,
  subtasksOfPlans,
} from '@swarm/storage';
import { ColonyError } from '@swarm/tools';
import { normalizeRepoRoot } from '../tasks/task-service';

export interface SubtaskLocator {
  readonly plan_slug: string;
  readonly subtask_index: number;
  readonly repo_root?: string | undefined;
}

export interface LocatedSubtask {
  readonly plan: Plan;
  readonly subtask: PlanSubtask;
  /** Every sub-task of the plan, by index (the located one included). */
  readonly siblings: PlanSubtask[];
}

/**
 * The plan with this slug: PLAN_SUBTASK_NOT_FOUND when none, PLAN_AMBIGUOUS when several
 * and no repo_root. Synchronous on a SQLite store (a lost claim's lock poll reads it).
 */
export function locatePlan(store: ColonyStore, slug: string, repoRoot: string | undefined): Plan | Promise<Plan> {
  if (repoRoot !== undefined) {
    const root = normalizeRepoRoot(repoRoot);
    return andThen(findPlan(store, root, slug), (plan) => plan ?? throwNotFound(`no plan "${slug}" in ${root}`, slug));
  }
  return andThen(plansWithSlug(store, slug), (plans) => {
    if (plans.length === 1) return plans[0] as Plan;
    if (plans.length === 0) return throwNotFound(`no plan "${slug}"`, slug);
    throw new ColonyError('PLAN_AMBIGUOUS', `plan "${slug}" exists in ${plans.length} repositories: pass repo_root`, {
      details: { plan_slug: slug, repo_roots: plans.map((p) => p.repoRoot) },
    });
  });
}

/** The sub-task a locator names, with its plan and siblings; synchronous on a SQLite store. */
export function locateSubtask(store: ColonyStore, locator: SubtaskLocator): LocatedSubtask | Promise<LocatedSubtask> {
  return andThen(locatePlan(store, locator.plan_slug, locator.repo_root), (plan) =>
    andThen(subtasksOfPlans(store, [plan.id]), (siblings): LocatedSubtask => {
      const subtask = siblings.find((s) => s.subtaskIndex === locator.subtask_index);
      if (subtask) return { plan, subtask, siblings };
      return throwNotFound(
        `plan "${plan.slug}" has no sub-task ${locator.subtask_index} (it has 0..${siblings.length - 1})`,
        plan.slug,
        locator.subtask_index,
      );
    }),
  );
}

function throwNotFound(message: string, slug: string, index?: number): never {
  throw notFound(message, slug, index);
}

function notFound(message: string, slug: string, index?: number): ColonyError {
  return new ColonyError('PLAN_SUBTASK_NOT_FOUND', message, {
    details: { plan_slug: slug, ...(index === undefined ? {} : { subtask_index: index }) },
  });
}

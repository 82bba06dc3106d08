/**
 * @module plans/locate
 * Finding a plan sub-task from (plan_slug, subtask_index, optional repo_root). A slug is
 * unique per repository, so without repo_root it must name one plan only.
 */
import { findPlan, type Plan, type PlanSubtask, plansWithSlug, type Store, subtasksOfPlans } from '@swarm/storage';
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

/** The plan with this slug: PLAN_SUBTASK_NOT_FOUND when none, PLAN_AMBIGUOUS when several and no repo_root. */
export function locatePlan(store: Store, slug: string, repoRoot: string | undefined): Plan {
  if (repoRoot !== undefined) {
    const plan = findPlan(store, normalizeRepoRoot(repoRoot), slug);
    if (plan) return plan;
    throw notFound(`no plan "${slug}" in ${normalizeRepoRoot(repoRoot)}`, slug);
  }
  const plans = plansWithSlug(store, slug);
  if (plans.length === 1) return plans[0] as Plan;
  if (plans.length === 0) throw notFound(`no plan "${slug}"`, slug);
  throw new ColonyError('PLAN_AMBIGUOUS', `plan "${slug}" exists in ${plans.length} repositories: pass repo_root`, {
    details: { plan_slug: slug, repo_roots: plans.map((p) => p.repoRoot) },
  });
}

export function locateSubtask(store: Store, locator: SubtaskLocator): LocatedSubtask {
  const plan = locatePlan(store, locator.plan_slug, locator.repo_root);
  const siblings = subtasksOfPlans(store, [plan.id]);
  const subtask = siblings.find((s) => s.subtaskIndex === locator.subtask_index);
  if (!subtask) {
    throw notFound(
      `plan "${plan.slug}" has no sub-task ${locator.subtask_index} (it has 0..${siblings.length - 1})`,
      plan.slug,
      locator.subtask_index,
    );
  }
  return { plan, subtask, siblings };
}

function notFound(message: string, slug: string, index?: number): ColonyError {
  return new ColonyError('PLAN_SUBTASK_NOT_FOUND', message, {
    details: { plan_slug: slug, ...(index === undefined ? {} : { subtask_index: index }) },
  });
}

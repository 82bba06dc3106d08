/**
 * @module viewer/plans-panel
 * Plans as waves: task_plan_list's sub-tasks grouped by wave_index (a column each on
 * the page), with status, claimer and whether a sub-task is claimable now.
 */
import type { PlanSummary, SubtaskStatus } from '@swarm/tools';
import { given, type ReadTool } from './_reader';
import type { ViewerScope } from './_scope';

export interface PlanSubtaskView {
  readonly subtask_index: number;
  readonly title: string;
  readonly status: SubtaskStatus;
  /** Available with every dependency completed. */
  readonly claimable_now: boolean;
  readonly depends_on: readonly number[];
  readonly capability_hint: string | null;
  readonly file_scope: readonly string[];
  readonly claimed_by_agent: string | null;
  readonly claimed_by_session_id: string | null;
}

export interface PlanView {
  readonly plan_slug: string;
  readonly title: string;
  readonly repo_root: string;
  readonly status: PlanSummary['status'];
  readonly created_at: number;
  readonly subtask_counts: PlanSummary['subtask_counts'];
  readonly waves: readonly { readonly wave_index: number; readonly subtasks: readonly PlanSubtaskView[] }[];
}

export interface PlansPanel {
  readonly plans: readonly PlanView[];
}

/** Plans shown at most (newest first). */
export const PLAN_LIMIT = 25;

export async function plansPanel(read: ReadTool, scope: ViewerScope): Promise<PlansPanel> {
  const plans = await read<PlanSummary[]>('task_plan_list', given({ repo_root: scope.repoRoot, limit: PLAN_LIMIT }));
  return { plans: plans.map(planView) };
}

function planView(plan: PlanSummary): PlanView {
  const next = new Set(plan.next_available.map((s) => s.subtask_index));
  const waves = new Map<number, PlanSubtaskView[]>();
  for (const s of [...plan.subtasks].sort((a, b) => a.subtask_index - b.subtask_index)) {
    const wave = waves.get(s.wave_index) ?? [];
    wave.push({
      subtask_index: s.subtask_index,
      title: s.title,
      status: s.status,
      claimable_now: next.has(s.subtask_index),
      depends_on: s.depends_on,
      capability_hint: s.capability_hint,
      file_scope: s.file_scope,
      claimed_by_agent: s.claimed_by_agent,
      claimed_by_session_id: s.claimed_by_session_id,
    });
    waves.set(s.wave_index, wave);
  }
  return {
    plan_slug: plan.plan_slug,
    title: plan.title,
    repo_root: plan.repo_root,
    status: plan.status,
    created_at: plan.created_at,
    subtask_counts: plan.subtask_counts,
    waves: [...waves.entries()].sort(([a], [b]) => a - b).map(([wave_index, subtasks]) => ({ wave_index, subtasks })),
  };
}

/**
 * @module plans/plan-view
 * How plans and sub-tasks read on the wire: compact rollups, and the sub-tasks that
 * can be claimed next.
 */
import type { Plan, PlanSubtask } from '@swarm/storage';
import type { NextAvailableSubtask, PlanSubtaskEntry, PlanSummary, SubtaskStatus } from '@swarm/tools';

/** `<slug>/sub-<index>`, as messages name a sub-task. */
export function subtaskRef(plan: Plan, subtask: PlanSubtask): string {
  return `${plan.slug}/sub-${subtask.subtaskIndex}`;
}

/** Sub-tasks claimable now: available, with every dependency completed. */
export function nextAvailable(subtasks: readonly PlanSubtask[]): NextAvailableSubtask[] {
  const completed = new Set(subtasks.filter((s) => s.status === 'completed').map((s) => s.subtaskIndex));
  return subtasks
    .filter((s) => s.status === 'available' && s.dependsOn.every((d) => completed.has(d)))
    .map((s) => ({
      subtask_index: s.subtaskIndex,
      title: s.title,
      wave_index: s.waveIndex,
      capability_hint: s.capabilityHint,
      file_scope: s.fileScope,
    }));
}

export function subtaskEntry(s: PlanSubtask): PlanSubtaskEntry {
  return {
    subtask_index: s.subtaskIndex,
    title: s.title,
    status: s.status as SubtaskStatus,
    wave_index: s.waveIndex,
    depends_on: s.dependsOn,
    capability_hint: s.capabilityHint,
    file_scope: s.fileScope,
    task_id: s.taskId,
    branch: s.branch,
    claimed_by_session_id: s.claimedBySessionId,
    claimed_by_agent: s.claimedByAgent,
  };
}

export function planSummary(plan: Plan, subtasks: readonly PlanSubtask[], specTaskExists: boolean): PlanSummary {
  const counts: Record<SubtaskStatus, number> = { available: 0, claimed: 0, completed: 0, blocked: 0 };
  for (const s of subtasks) counts[s.status as SubtaskStatus]++;
  return {
    plan_slug: plan.slug,
    repo_root: plan.repoRoot,
    spec_task_id: plan.specTaskId,
    registry_status: specTaskExists ? 'registered' : 'subtask-only',
    status: plan.status as PlanSummary['status'],
    title: plan.title,
    created_at: plan.createdAt,
    subtask_counts: counts,
    subtasks: subtasks.map(subtaskEntry),
    next_available: nextAvailable(subtasks),
  };
}

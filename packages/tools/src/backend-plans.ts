/**
 * @module backend-plans
 * Plans and profiles: validation findings, publish, sub-task claims and completion,
 * spec-row status, capability profiles. Part of the backend contract (see `backend`).
 */
import type { SpecConflictEntry } from './backend-specs';
import type {
  TaskPlanClaimSubtaskInput,
  TaskPlanCompleteSubtaskInput,
  TaskPlanListInput,
  TaskPlanPublishInput,
  TaskPlanStatusForSpecRowInput,
  TaskPlanValidateInput,
} from './tools/plans';
import type { AgentGetProfileInput, AgentUpsertProfileInput } from './tools/profiles';

export interface PlanPairOverlap {
  a: number;
  b: number;
  shared: string[];
}

export interface PlanModuleWarning {
  a: number;
  b: number;
  shared_modules: string[];
}

export interface PlanLiveClaimCollision {
  subtask_index: number;
  file_path: string;
  holder_session_id: string;
  holder_agent: string;
  holder_task_id: number;
  holder_branch: string;
  claimed_at: number;
}

export type PlanRuleCode =
  | 'PLAN_INVALID_WAVE_DEPENDENCY'
  | 'PLAN_WAVE_SCOPE_OVERLAP'
  | 'PLAN_FINALIZER_NOT_LAST'
  | 'PLAN_SCOPE_OVERLAP';

/** One broken ordering rule of a plan. */
export interface PlanWaveError {
  code: PlanRuleCode;
  message: string;
  subtask_index?: number;
  dependency_index?: number;
  wave?: number;
  shared?: string[];
  related_subtask_indices?: number[];
}

export interface PlanFinding {
  code: string;
  severity: 'error' | 'warning' | 'info';
  message: string;
  subtask_index?: number;
  file_path?: string;
}

export interface PlanValidationSummary {
  blocking: boolean;
  finding_count: number;
  counts: { error: number; warning: number; info: number };
  findings: PlanFinding[];
}

export interface PlanValidateResult {
  pairwise_overlaps: PlanPairOverlap[];
  live_claim_collisions: PlanLiveClaimCollision[];
  module_warnings: PlanModuleWarning[];
  ordered_wave_errors: PlanWaveError[];
  /** The wave of each sub-task, by index; null when the dependencies are invalid. */
  waves: number[] | null;
  summary: PlanValidationSummary;
  partition_clean: boolean;
}

export interface PublishedSubtask {
  subtask_index: number;
  branch: string;
  task_id: number;
  title: string;
}

export interface PlanPublishResult {
  plan_slug: string;
  spec_task_id: number;
  spec_change_path: string | null;
  subtasks: PublishedSubtask[];
}

export type SubtaskStatus = 'available' | 'claimed' | 'completed' | 'blocked';

export interface PlanSubtaskEntry {
  subtask_index: number;
  title: string;
  status: SubtaskStatus;
  wave_index: number;
  depends_on: number[];
  capability_hint: string | null;
  file_scope: string[];
  task_id: number;
  branch: string;
  claimed_by_session_id: string | null;
  claimed_by_agent: string | null;
}

/** A sub-task claimable now: available, every dependency completed. */
export interface NextAvailableSubtask {
  subtask_index: number;
  title: string;
  wave_index: number;
  capability_hint: string | null;
  file_scope: string[];
}

export interface PlanSummary {
  plan_slug: string;
  repo_root: string;
  spec_task_id: number;
  registry_status: 'registered' | 'subtask-only';
  status: 'active' | 'archived';
  title: string;
  created_at: number;
  subtask_counts: Record<SubtaskStatus, number>;
  subtasks: PlanSubtaskEntry[];
  next_available: NextAvailableSubtask[];
}

export interface SubtaskClaimResult {
  task_id: number;
  branch: string;
  file_scope: string[];
  /** Other sessions' fresh or handoff_pending claims on the claimed files. */
  warnings?: string[];
  /** Set when the caller already held this sub-task. */
  already_claimed?: true;
}

export interface AutoArchiveOutcome {
  status: 'skipped' | 'archived' | 'blocked' | 'error';
  reason?: string;
  archived_path?: string;
  merged_root_hash?: string;
  /** How many deltas of the change were applied. */
  applied?: number;
  conflicts?: SpecConflictEntry[];
}

export interface SubtaskCompleteResult {
  status: 'completed';
  /** Sub-task indices that became available with this completion. */
  unblocked: number[];
  auto_archive: AutoArchiveOutcome;
}

export interface SpecRowBinding {
  plan_slug: string;
  subtask_index: number;
  task_id: number;
  branch: string;
  spec_row_id: string;
}

export type SpecRowStatusResult =
  | (SpecRowBinding & {
      status: SubtaskStatus;
      claimed_by_session_id: string | null;
      claimed_by_agent: string | null;
      binding: SpecRowBinding;
    })
  | { spec_row_id: string; binding: null; status: null };

export interface PlanBackend {
  validate(args: TaskPlanValidateInput): PlanValidateResult;
  publish(args: TaskPlanPublishInput): PlanPublishResult;
  list(args: TaskPlanListInput): PlanSummary[];
  claimSubtask(args: TaskPlanClaimSubtaskInput): SubtaskClaimResult;
  completeSubtask(args: TaskPlanCompleteSubtaskInput): SubtaskCompleteResult;
  statusForSpecRow(args: TaskPlanStatusForSpecRowInput): SpecRowStatusResult;
}

/** Weights in [0, 1] by capability dimension. */
export type CapabilityWeights = Record<string, number>;

export interface AgentProfileResult {
  agent: string;
  capabilities: CapabilityWeights;
  created_at: number;
  updated_at: number;
}

export interface AgentProfileView {
  agent: string;
  capabilities: CapabilityWeights;
  defaults: CapabilityWeights;
}

export interface ProfileBackend {
  upsert(args: AgentUpsertProfileInput): AgentProfileResult;
  get(args: AgentGetProfileInput): AgentProfileView;
}

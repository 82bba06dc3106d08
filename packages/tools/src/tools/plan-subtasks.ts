/**
 * @module tools/plan-subtasks
 * Working a published plan: list plans with their next claimable sub-tasks, claim and
 * complete a sub-task, and ask whether a spec row is already bound to one. Plan
 * vocabulary (slugs, sub-task indexes) comes from tools/plans.
 */
import { z } from 'zod';
import { defineTool } from '../define-tool';
import { agentName, filePath, limit, repoRoot, sessionId, text } from '../schemas';
import { MAX_FILE_SCOPE, planSlug, subtaskIndex } from './plans';
import type { SpecConflictEntry } from './specs';

const capability = text(64);
const specRowId = text(64);

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

/** The sub-task half of ColonyBackend.plans (tools/plans.ts holds validate and publish). */
export interface PlanSubtaskBackend {
  list(args: TaskPlanListInput): Promise<PlanSummary[]>;
  claimSubtask(args: TaskPlanClaimSubtaskInput): Promise<SubtaskClaimResult>;
  completeSubtask(args: TaskPlanCompleteSubtaskInput): Promise<SubtaskCompleteResult>;
  statusForSpecRow(args: TaskPlanStatusForSpecRowInput): Promise<SpecRowStatusResult>;
}

/** The part of ColonyBackend these tools call (backend.ts composes the whole). */
type Host = { readonly plans: PlanSubtaskBackend };

export const TaskPlanListInput = z.strictObject({
  repo_root: repoRoot.optional(),
  only_with_available_subtasks: z.boolean().default(false),
  capability_match: capability.optional(),
  limit: limit(25, 100),
});
export type TaskPlanListInput = z.output<typeof TaskPlanListInput>;

export const taskPlanList = defineTool({
  name: 'task_plan_list',
  title: 'List plans',
  description: 'Published plans and their claimable sub-tasks.',
  input: TaskPlanListInput,
  mutates: false,
  docs: {
    returns:
      '[ { plan_slug, repo_root, spec_task_id, registry_status, status, title, created_at, ' +
      'subtask_counts: { available, claimed, completed, blocked }, subtasks: [ { subtask_index, title, ' +
      'status, wave_index, depends_on, capability_hint, file_scope, task_id, branch, ' +
      'claimed_by_session_id, claimed_by_agent } ], next_available: [ { subtask_index, title, ' +
      'wave_index, capability_hint, file_scope } ] } ] newest first',
    notes:
      'next_available lists sub-tasks whose status is available: unclaimed, with every depends_on ' +
      'completed. capability_match keeps plans where at least one next_available sub-task has that ' +
      'capability_hint; only_with_available_subtasks keeps plans with any. registry_status is ' +
      '"registered" when the plan\'s spec task thread exists, "subtask-only" when only the sub-task ' +
      'rows were found. status is active or archived.',
    example: { repo_root: '/abs/repo', only_with_available_subtasks: true, capability_match: 'ui_work', limit: 25 },
  },
  handler: (args, b: Host) => b.plans.list(args),
});

const subtaskRef = {
  plan_slug: planSlug,
  subtask_index: subtaskIndex,
  session_id: sessionId,
  repo_root: repoRoot.optional(),
};

export const TaskPlanClaimSubtaskInput = z.strictObject({
  ...subtaskRef,
  agent: agentName,
  file_scope: z.array(filePath).max(MAX_FILE_SCOPE).optional(),
});
export type TaskPlanClaimSubtaskInput = z.output<typeof TaskPlanClaimSubtaskInput>;

export const taskPlanClaimSubtask = defineTool({
  name: 'task_plan_claim_subtask',
  title: 'Claim sub-task',
  description: 'Claim a plan sub-task and its file_scope.',
  input: TaskPlanClaimSubtaskInput,
  core: true,
  mutates: true,
  hints: { destructive: false, idempotent: false },
  docs: {
    returns:
      "{ task_id, branch, file_scope } plus `warnings` (other sessions' fresh claims on those files) " +
      'when there are any, and already_claimed: true when you held it already.',
    errors: [
      'PLAN_SUBTASK_NOT_FOUND',
      'PLAN_SUBTASK_DEPS_UNMET',
      'PLAN_SUBTASK_NOT_AVAILABLE',
      'PLAN_AMBIGUOUS',
      'SESSION_NOT_FOUND',
    ],
    notes:
      'Runs inside one write transaction: the guarded status update (available -> claimed) serializes ' +
      'racing claimers across processes, so exactly one wins; a database constraint allows one active ' +
      'claim per sub-task. The winner is registered as a session (like task_thread), joins the ' +
      'sub-task thread, gets a file claim on every file_scope entry and a plan-subtask-claim ' +
      'observation (metadata.status claimed). A blocked sub-task answers PLAN_SUBTASK_DEPS_UNMET with ' +
      '`unmet` (dependency indices not completed); a claimed or completed one ' +
      'PLAN_SUBTASK_NOT_AVAILABLE with `status`, `claimed_by_agent` and `next_available` (claimable ' +
      'sub-tasks of the plan). repo_root is needed only when the slug exists in several repositories ' +
      '(else PLAN_AMBIGUOUS). file_scope is accepted for copy-paste from task_ready_for_agent; the ' +
      "sub-task's own file_scope is what gets claimed.",
    example: { plan_slug: 'add-widget-page', subtask_index: 0, session_id: 'sess_def', agent: 'codex' },
  },
  handler: (args, b: Host) => b.plans.claimSubtask(args),
});

export const TaskPlanCompleteSubtaskInput = z.strictObject({
  ...subtaskRef,
  summary: z.string().min(1).max(4000),
});
export type TaskPlanCompleteSubtaskInput = z.output<typeof TaskPlanCompleteSubtaskInput>;

export const taskPlanCompleteSubtask = defineTool({
  name: 'task_plan_complete_subtask',
  title: 'Complete sub-task',
  description: 'Complete your sub-task and release its claims.',
  input: TaskPlanCompleteSubtaskInput,
  core: true,
  mutates: true,
  hints: { destructive: false, idempotent: false },
  docs: {
    returns:
      "{ status: 'completed', unblocked: [ subtask_index ], auto_archive: { status: 'skipped' | " +
      "'archived' | 'blocked' | 'error', reason?, archived_path?, merged_root_hash?, applied?, " +
      'conflicts? } }',
    errors: ['PLAN_SUBTASK_NOT_FOUND', 'PLAN_SUBTASK_NOT_CLAIMED', 'PLAN_SUBTASK_NOT_YOURS', 'PLAN_AMBIGUOUS'],
    notes:
      "Releases your claims on the sub-task's file_scope and stamps a plan-subtask-claim observation " +
      "with status 'completed' (the summary is its body). Dependants whose depends_on are now all " +
      "completed become available (`unblocked`). auto_archive is always present: 'skipped' " +
      '(auto_archive off, sub-tasks still outstanding, or no spec change; `reason` says which), ' +
      "'archived' (clean three-way merge: archived_path, merged_root_hash, applied = deltas applied; " +
      "plan-archived observation on the spec task; the plan's status becomes archived), 'blocked' " +
      '(merge conflicts: the change stays open to resolve by hand and call spec_archive, `conflicts`; ' +
      "plan-archive-blocked observation), 'error' (the archive failed, e.g. CHANGE.md missing; " +
      '`reason`; plan-archive-error observation). The completion stands in every case. ' +
      'PLAN_SUBTASK_NOT_CLAIMED carries `status`; PLAN_SUBTASK_NOT_YOURS `claimed_by_session_id` and ' +
      '`claimed_by_agent`.',
    example: {
      plan_slug: 'add-widget-page',
      subtask_index: 0,
      session_id: 'sess_def',
      summary: 'Widget API landed: GET /api/widgets serving rows.',
    },
  },
  handler: (args, b: Host) => b.plans.completeSubtask(args),
});

export const TaskPlanStatusForSpecRowInput = z.strictObject({ repo_root: repoRoot, spec_row_id: specRowId });
export type TaskPlanStatusForSpecRowInput = z.output<typeof TaskPlanStatusForSpecRowInput>;

export const taskPlanStatusForSpecRow = defineTool({
  name: 'task_plan_status_for_spec_row',
  title: 'Spec row status',
  description: 'Whether a spec row is bound to a plan sub-task.',
  input: TaskPlanStatusForSpecRowInput,
  mutates: false,
  docs: {
    returns:
      'Covered: { plan_slug, subtask_index, task_id, branch, spec_row_id, status, ' +
      'claimed_by_session_id, claimed_by_agent, binding: { plan_slug, subtask_index, task_id, branch, ' +
      'spec_row_id } }. Not covered: { spec_row_id, binding: null, status: null }.',
    notes:
      'Check before publishing a sub-task for a spec row so it is not published twice. When several ' +
      'sub-tasks carry the row, the one not completed (else the newest) answers.',
    example: { repo_root: '/abs/repo', spec_row_id: 'T5' },
  },
  handler: (args, b: Host) => b.plans.statusForSpecRow(args),
});

export const planSubtaskTools = [taskPlanList, taskPlanClaimSubtask, taskPlanCompleteSubtask, taskPlanStatusForSpecRow];

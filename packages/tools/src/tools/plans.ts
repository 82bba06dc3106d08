/**
 * @module tools/plans
 * Plan tools: validate and publish a multi-agent plan (sub-tasks ordered in waves by
 * depends_on), list plans with their next claimable sub-tasks, claim and complete a
 * sub-task, and ask whether a spec row is already bound to one.
 */
import { z } from 'zod';
import { defineTool } from '../define-tool';
import { agentName, filePath, limit, repoRoot, sessionId, shortText, text } from '../schemas';
import type { SpecConflictEntry } from './specs';

/** Most sub-tasks one plan may hold. */
export const MAX_PLAN_SUBTASKS = 50;
/** Most files one sub-task's file_scope may name. */
export const MAX_FILE_SCOPE = 100;
/** A plan slug: kebab-case, as spec changes are named. */
export const PLAN_SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

export const planSlug = z.string().min(1).max(100).regex(PLAN_SLUG, 'must be kebab-case (a-z, 0-9, -)');
export const subtaskIndex = z
  .int()
  .min(0)
  .max(MAX_PLAN_SUBTASKS - 1);
const capability = text(64);
const specRowId = text(64);

export const PlanSubtaskInput = z.strictObject({
  title: text(200),
  description: z.string().min(1).max(4000),
  file_scope: z.array(filePath).min(1).max(MAX_FILE_SCOPE),
  depends_on: z.array(z.int()).max(MAX_PLAN_SUBTASKS).optional(),
  capability_hint: capability.optional(),
  spec_row_id: specRowId.optional(),
});
export type PlanSubtaskInput = z.output<typeof PlanSubtaskInput>;

const subtasks = z.array(PlanSubtaskInput).min(2).max(MAX_PLAN_SUBTASKS);

const VALIDATION_RULES =
  'depends_on holds zero-based indices of EARLIER sub-tasks (a forward reference, an index outside ' +
  'the plan or a cycle is PLAN_INVALID_WAVE_DEPENDENCY); wave = 0 without dependencies, else 1 + ' +
  'the highest wave among them. Sub-tasks in one wave may not share a file_scope entry ' +
  '(PLAN_WAVE_SCOPE_OVERLAP), nor may any two sub-tasks without a depends_on chain between them ' +
  '(PLAN_SCOPE_OVERLAP): sequence them to overlap. Finalizers (titles with final, finalize, ' +
  'verify, verification, qa or release; capability_hint test_work with test/verify/qa in the ' +
  'title; doc_work with "update|final|release ... docs|readme|notes") must be in the last wave and ' +
  'depend, directly or transitively, on every earlier non-finalizer (PLAN_FINALIZER_NOT_LAST). ' +
  'file_scope paths are relative to repo_root (or absolute inside it) and stored repo-relative.';

export const TaskPlanValidateInput = z.strictObject({ repo_root: repoRoot, subtasks });
export type TaskPlanValidateInput = z.output<typeof TaskPlanValidateInput>;

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

/** The part of ColonyBackend these tools call (backend.ts composes the whole). */
type Host = { readonly plans: PlanBackend };

export const taskPlanValidate = defineTool({
  name: 'task_plan_validate',
  description: 'Check a multi-agent plan for scope overlaps, live claim collisions and wave errors before publishing.',
  input: TaskPlanValidateInput,
  mutates: false,
  docs: {
    returns:
      '{ pairwise_overlaps: [ { a, b, shared } ], live_claim_collisions: [ { subtask_index, file_path, ' +
      'holder_session_id, holder_agent, holder_task_id, holder_branch, claimed_at } ], ' +
      'module_warnings: [ { a, b, shared_modules } ], ordered_wave_errors: [ { code, message, ' +
      'subtask_index?, dependency_index?, wave?, shared?, related_subtask_indices? } ], waves: [ wave ' +
      'per sub-task ] | null, summary: { blocking, finding_count, counts: { error, warning, info }, ' +
      'findings: [ { code, severity, message, subtask_index?, file_path? } ] }, partition_clean }',
    errors: ['PATH_OUTSIDE_REPO'],
    notes:
      `Writes nothing. ${VALIDATION_RULES} pairwise_overlaps lists independent pairs sharing files; ` +
      `live_claim_collisions the files of the plan someone already holds with a fresh or ` +
      `handoff_pending claim in the repository; module_warnings independent pairs touching the same ` +
      `folder without sharing a file (a warning only). partition_clean is false when the plan needs ` +
      `sequencing, narrower file scopes or claim coordination first: when pairwise_overlaps, ` +
      `live_claim_collisions or ordered_wave_errors is non-empty. waves is null when dependencies are ` +
      `invalid.`,
    example: {
      repo_root: '/abs/repo',
      subtasks: [
        {
          title: 'API',
          description: 'Build API route.',
          file_scope: ['apps/api/src/widgets.ts'],
          capability_hint: 'api_work',
        },
        {
          title: 'UI',
          description: 'Render widget page.',
          file_scope: ['apps/frontend/src/widgets.tsx'],
          depends_on: [0],
          capability_hint: 'ui_work',
        },
      ],
    },
  },
  handler: (args, b: Host) => b.plans.validate(args),
});

export const TaskPlanPublishInput = z.strictObject({
  repo_root: repoRoot,
  slug: planSlug,
  session_id: sessionId,
  agent: agentName,
  title: text(200),
  problem: z.string().min(1).max(4000),
  acceptance_criteria: z.array(shortText).min(1).max(50),
  subtasks,
  auto_archive: z.boolean().default(false),
});
export type TaskPlanPublishInput = z.output<typeof TaskPlanPublishInput>;

export const taskPlanPublish = defineTool({
  name: 'task_plan_publish',
  description: 'Publish a multi-agent plan as a spec change with one claimable task thread per sub-task.',
  input: TaskPlanPublishInput,
  mutates: true,
  docs: {
    returns: '{ plan_slug, spec_task_id, spec_change_path, subtasks: [ { subtask_index, branch, task_id, title } ] }',
    errors: [
      'PLAN_INVALID_WAVE_DEPENDENCY',
      'PLAN_WAVE_SCOPE_OVERLAP',
      'PLAN_FINALIZER_NOT_LAST',
      'PLAN_SCOPE_OVERLAP',
      'PLAN_ALREADY_PUBLISHED',
      'SPEC_CHANGE_EXISTS',
      'PATH_OUTSIDE_REPO',
    ],
    notes:
      `At least 2 sub-tasks (for a single task use task_thread). ${VALIDATION_RULES} A refusal carries ` +
      `\`errors\` (the ordered_wave_errors or overlaps found) and writes nothing. Publishing opens the ` +
      `spec change openspec/changes/<slug>/CHANGE.md (spec_change_path; repo_root must be an existing ` +
      `directory, and SPEC_CHANGE_EXISTS when that change is already open) and its thread on ` +
      `spec/<slug>, joined by the publisher, with a plan-config observation (metadata.auto_archive); ` +
      `each sub-task gets a thread on spec/<slug>/sub-<index> and a plan-subtask observation ` +
      `(metadata: parent_plan_slug, parent_plan_title, parent_spec_task_id, subtask_index, file_scope, ` +
      `depends_on, capability_hint, status). The publisher does not join the sub-tasks: publishing is ` +
      `advertising, not claiming. Sub-tasks without dependencies start available, the others blocked ` +
      `until their dependencies complete. A slug is unique per repository (PLAN_ALREADY_PUBLISHED). ` +
      `auto_archive (default false): when the last sub-task completes, the spec change is three-way ` +
      `merged and archived; conflicts block it (plan-archive-blocked) instead of forcing. See ` +
      `task_plan_complete_subtask.`,
    example: {
      repo_root: '/abs/repo',
      slug: 'add-widget-page',
      session_id: 'sess_abc',
      agent: 'claude',
      title: 'Add widget page',
      problem: 'No widget page exists yet; users have no entry point.',
      acceptance_criteria: ['Widget page renders', 'Widget API returns rows'],
      subtasks: [
        {
          title: 'Build widget API',
          description: 'Add GET /api/widgets that returns rows.',
          file_scope: ['apps/api/src/widgets.ts'],
          capability_hint: 'api_work',
        },
        {
          title: 'Build widget page',
          description: 'Render the widget list with a card per row.',
          file_scope: ['apps/frontend/src/pages/widgets.tsx'],
          depends_on: [0],
          capability_hint: 'ui_work',
        },
      ],
      auto_archive: false,
    },
  },
  handler: (args, b: Host) => b.plans.publish(args),
});

export const TaskPlanListInput = z.strictObject({
  repo_root: repoRoot.optional(),
  only_with_available_subtasks: z.boolean().default(false),
  capability_match: capability.optional(),
  limit: limit(25, 100),
});
export type TaskPlanListInput = z.output<typeof TaskPlanListInput>;

export const taskPlanList = defineTool({
  name: 'task_plan_list',
  description: 'List published plans with sub-task counts and the sub-tasks claimable next.',
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
  description: 'Claim an available plan sub-task: joins its thread and claims its file_scope.',
  input: TaskPlanClaimSubtaskInput,
  core: true,
  mutates: true,
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
  description: 'Mark your claimed sub-task complete, releasing its file claims and unblocking dependants.',
  input: TaskPlanCompleteSubtaskInput,
  core: true,
  mutates: true,
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
  description: 'Whether a spec row (e.g. T5) is already bound to a published plan sub-task.',
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

export const planTools = [
  taskPlanValidate,
  taskPlanPublish,
  taskPlanList,
  taskPlanClaimSubtask,
  taskPlanCompleteSubtask,
  taskPlanStatusForSpecRow,
];

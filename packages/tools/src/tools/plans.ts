/**
 * @module tools/plans
 * Plan tools: validate and publish a multi-agent plan (sub-tasks ordered in waves by
 * depends_on), and the plan vocabulary (slugs, sub-task indexes, limits). Working a
 * published plan (list, claim, complete, spec-row status) is tools/plan-subtasks.
 */
import { z } from 'zod';
import { defineTool } from '../define-tool';
import { agentName, filePath, repoRoot, sessionId, shortText, text } from '../schemas';

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

export interface PlanBackend {
  validate(args: TaskPlanValidateInput): Promise<PlanValidateResult>;
  publish(args: TaskPlanPublishInput): Promise<PlanPublishResult>;
}

/** The part of ColonyBackend these tools call (backend.ts composes the whole). */
type Host = { readonly plans: PlanBackend };

export const taskPlanValidate = defineTool({
  name: 'task_plan_validate',
  title: 'Validate plan',
  description: 'Check a plan for scope overlaps and claim collisions.',
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
  title: 'Publish plan',
  description: 'Publish a plan, one task thread per sub-task.',
  input: TaskPlanPublishInput,
  mutates: true,
  hints: { destructive: false, idempotent: false },
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

export const planTools = [taskPlanValidate, taskPlanPublish];

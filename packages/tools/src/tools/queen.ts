/**
 * @module tools/queen
 * queen_plan_goal: decompose a broad goal into a plan of claimable sub-tasks (lanes by
 * kind of work and module, in waves, closed by a finalizer) and publish it, or only
 * show it with dry_run.
 */
import { z } from 'zod';
import { defineTool } from '../define-tool';
import { filePath, repoRoot, sessionId, shortText, text } from '../schemas';
import type { PlanPublishResult, PlanValidateResult } from './plans';

export const QUEEN_ORDERINGS = ['wave', 'serial'] as const;
/** Most files one goal may name. */
export const MAX_AFFECTED_FILES = 200;

export const QueenPlanGoalInput = z.strictObject({
  goal_title: text(200),
  problem: z.string().min(1).max(3000),
  acceptance_criteria: z.array(shortText).min(1).max(50),
  repo_root: repoRoot,
  affected_files: z.array(filePath).min(1).max(MAX_AFFECTED_FILES),
  ordering_hint: z.enum(QUEEN_ORDERINGS).default('wave'),
  finalizer: text(200).optional(),
  session_id: sessionId,
  dry_run: z.boolean().default(false),
});
export type QueenPlanGoalInput = z.output<typeof QueenPlanGoalInput>;

/** Sub-task indices by capability_hint. */
export type McpCapabilityMap = Record<string, number[]>;

export interface QueenPublished {
  plan_slug: string;
  spec_task_id: number;
  mcp_capability_map: McpCapabilityMap;
  subtasks: PlanPublishResult['subtasks'];
  plan_validation: PlanValidateResult;
}

export interface QueenDryRun {
  dry_run: true;
  plan_slug: string;
  /** The exact task_plan_publish input. */
  plan: Record<string, unknown>;
  mcp_capability_map: McpCapabilityMap;
  plan_validation: PlanValidateResult;
}

export interface QueenBackend {
  planGoal(args: QueenPlanGoalInput): Promise<QueenPublished | QueenDryRun>;
}

/** The part of ColonyBackend these tools call (backend.ts composes the whole). */
type Host = { readonly queen: QueenBackend };

export const queenPlanGoal = defineTool({
  name: 'queen_plan_goal',
  title: 'Plan goal',
  description: 'Split a goal into a plan of claimable sub-tasks.',
  input: QueenPlanGoalInput,
  mutates: true,
  hints: { destructive: false, idempotent: false },
  docs: {
    returns:
      'Published: { plan_slug, spec_task_id, mcp_capability_map, subtasks: [ { subtask_index, branch, ' +
      'task_id, title } ], plan_validation }. dry_run: { dry_run: true, plan_slug, plan, ' +
      'mcp_capability_map, plan_validation } where plan is the exact task_plan_publish input.',
    errors: [
      'PATH_OUTSIDE_REPO',
      'SPEC_CHANGE_EXISTS',
      'PLAN_INVALID_WAVE_DEPENDENCY',
      'PLAN_WAVE_SCOPE_OVERLAP',
      'PLAN_FINALIZER_NOT_LAST',
      'PLAN_SCOPE_OVERLAP',
    ],
    notes:
      'Deterministic: the same goal and files give the same plan. affected_files (repo-relative or ' +
      'absolute inside repo_root) are split into lanes by kind of work, read from the path ' +
      '(infra_work: CI, scripts, build config; api_work: code; ui_work: components, pages, styles; ' +
      'test_work: tests; doc_work: docs and markdown), and by module (packages/<x>, apps/<x>, else the ' +
      'top folder); past 8 lanes, modules of one kind merge. No file is in two lanes. ordering_hint ' +
      'wave (default): implementation lanes first in parallel, then test and doc lanes depending on ' +
      'all of them; serial: each lane after the previous. A finalizer (title from `finalizer`, default ' +
      '"Verify <goal_title>", prefixed "Verify: " when the plan rules would not read it as a ' +
      'finalizer) depends on every lane, scopes every file and lists the acceptance criteria. The slug ' +
      'comes from goal_title; when it is taken in the repository, -2, -3... is appended. Publishing ' +
      'goes through task_plan_publish with auto_archive true (so repo_root must be an existing ' +
      'directory, and a spec change already open under the slug answers SPEC_CHANGE_EXISTS), by the ' +
      'session (as the agent it registered as, else "queen"), who does not claim anything. ' +
      'mcp_capability_map maps each capability_hint to its sub-task indices; plan_validation is the ' +
      'task_plan_validate report (live claim collisions included). dry_run writes nothing.',
    example: {
      goal_title: 'Document every MCP tool',
      problem: 'Users cannot see the complete callable surface in one place.',
      acceptance_criteria: ['Each live tool has a docs section', 'Docs coverage is tested'],
      repo_root: '/abs/repo',
      affected_files: ['docs/mcp.md'],
      ordering_hint: 'wave',
      finalizer: 'Verify docs coverage',
      session_id: 'sess_abc',
      dry_run: true,
    },
  },
  handler: (args, b: Host) => b.queen.planGoal(args),
});

export const queenTools = [queenPlanGoal];

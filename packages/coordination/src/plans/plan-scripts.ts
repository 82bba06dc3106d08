/**
 * @module plans/plan-scripts
 * Plans from scripts (`colony.plans`): publish a plan object and list plans, as CI jobs
 * and setup scripts do (`colony plan publish` reads the object from a JSON or YAML
 * file). Every call goes through the tool registry it is given, so it is validated,
 * receipted and refused exactly as the MCP tools are; a refusal throws ColonyError with
 * the tool's code and details. A dry run reports what publishing would do by the same
 * rules publishing applies (the refusal order, the sub-task branch names).
 */
import { resolve } from 'node:path';
import {
  ColonyError,
  type ErrorCode,
  errorCodeOf,
  type PlanPublishResult,
  type PlanSummary,
  type PlanValidateResult,
  type TaskPlanListInput,
  type TaskPlanPublishInput,
  type ToolCallOutcome,
} from '@swarm/tools';
import type { z } from 'zod';
import { refusalCode } from './plan-rules';
import { subtaskBranch } from './spec-lane';

/** Session and agent a plan is published as when the plan names none. */
export const SCRIPT_SESSION_ID = 'colony-script';
export const SCRIPT_AGENT = 'script';

/** A plan as scripts write it: task_plan_publish arguments, session_id, agent and repo_root optional. */
export type PlanDocument = Omit<z.input<typeof TaskPlanPublishInput>, 'session_id' | 'agent' | 'repo_root'> & {
  readonly session_id?: string;
  readonly agent?: string;
  readonly repo_root?: string;
};

export interface PublishOptions {
  /** Validate and report what would be published, writing nothing. */
  readonly dryRun?: boolean;
  /** Used when the plan names no repo_root (default: the current directory). */
  readonly repoRoot?: string;
  readonly sessionId?: string;
  readonly agent?: string;
  /** Retry key: publishing again with the same key returns the first result. */
  readonly idempotencyKey?: string;
}

/** What a dry run reports: the plan as it would be published, and whether it would be. */
export interface PlanDryRun {
  readonly dry_run: true;
  readonly plan_slug: string;
  readonly repo_root: string;
  /** The code publishing would refuse with, or null when it would publish. */
  readonly refusal: ErrorCode | null;
  readonly subtasks: Array<{ subtask_index: number; branch: string; title: string; wave_index: number | null }>;
  readonly validation: PlanValidateResult;
}

export interface PlanScripts {
  publish(plan: PlanDocument, options: PublishOptions & { dryRun: true }): Promise<PlanDryRun>;
  publish(plan: PlanDocument, options?: PublishOptions): Promise<PlanPublishResult>;
  list(filter?: PlanListFilter): Promise<PlanSummary[]>;
}

/** task_plan_list arguments, all optional. */
export type PlanListFilter = z.input<typeof TaskPlanListInput>;

type Call = (name: string, args: unknown) => Promise<ToolCallOutcome>;

/** The scripting surface over a colony's tool calls. */
export function planScripts(call: Call): PlanScripts {
  const run = async <T>(name: string, args: unknown): Promise<T> => {
    const outcome = await call(name, args);
    if (outcome.ok) return outcome.value as T;
    const { code: _code, error, tool: _tool, timestamp: _ts, ...details } = outcome.error;
    throw new ColonyError(errorCodeOf(outcome.error), String(error), { details });
  };
  async function publish(plan: PlanDocument, options: PublishOptions = {}): Promise<PlanPublishResult | PlanDryRun> {
    const args = {
      ...plan,
      repo_root: resolve(plan.repo_root ?? options.repoRoot ?? process.cwd()),
      session_id: plan.session_id ?? options.sessionId ?? SCRIPT_SESSION_ID,
      agent: plan.agent ?? options.agent ?? SCRIPT_AGENT,
    };
    if (!options.dryRun) {
      const key = options.idempotencyKey;
      return run<PlanPublishResult>('task_plan_publish', key === undefined ? args : { ...args, idempotency_key: key });
    }
    const validation = await run<PlanValidateResult>('task_plan_validate', {
      repo_root: args.repo_root,
      subtasks: args.subtasks,
    });
    return {
      dry_run: true,
      plan_slug: args.slug,
      repo_root: args.repo_root,
      refusal: refusalOf(validation),
      subtasks: args.subtasks.map((s, i) => ({
        subtask_index: i,
        branch: subtaskBranch(args.slug, i),
        title: s.title,
        wave_index: validation.waves?.[i] ?? null,
      })),
      validation,
    };
  }
  return {
    publish: publish as PlanScripts['publish'],
    list: (filter = {}) => run<PlanSummary[]>('task_plan_list', filter),
  };
}

/** The code task_plan_publish would refuse these findings with. */
function refusalOf(validation: PlanValidateResult): ErrorCode | null {
  const codes = validation.ordered_wave_errors.map((e): string => e.code);
  return refusalCode(validation.pairwise_overlaps.length > 0 ? [...codes, 'PLAN_SCOPE_OVERLAP'] : codes);
}

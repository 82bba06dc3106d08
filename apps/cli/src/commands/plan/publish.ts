/**
 * `colony plan publish <file>`: publishes the plan in a JSON or YAML file (the
 * task_plan_publish arguments) through `colony.plans.publish`. `--dry-run` validates it
 * and prints what would be published, writing nothing; it exits 1 when publishing
 * would be refused, so CI can gate on it.
 */

import type { PlanDryRun } from '@swarm/core';
import { isColonyError, type PlanPublishResult } from '@swarm/tools';
import { defineCommand } from 'citty';
import { idempotencyArg, jsonArg } from '../../_args';
import { storeArgs, withColony } from '../../_colony';
import { CliError, printJson, printLines } from '../../_output';
import { loadPlanFile } from '../../_plan-file';

export default defineCommand({
  meta: { name: 'publish', description: 'Publish a plan from a JSON or YAML file (task_plan_publish arguments).' },
  args: {
    file: { type: 'positional', description: 'Plan file: .json, .yaml or .yml', required: true },
    'dry-run': {
      type: 'boolean',
      description: 'Validate and show what would be published; write nothing',
      default: false,
    },
    'repo-root': {
      type: 'string',
      description: 'Repository, when the file names no repo_root (default: current directory)',
      valueHint: 'path',
    },
    session: { type: 'string', description: 'Publish as this session, when the file names none', valueHint: 'id' },
    agent: { type: 'string', description: 'Publish as this agent, when the file names none', valueHint: 'name' },
    ...idempotencyArg,
    ...jsonArg,
    ...storeArgs,
  },
  async run({ args }) {
    const document = await refusalsAsCliErrors(() => loadPlanFile(String(args.file)));
    const options = {
      ...(args['idempotency-key'] ? { idempotencyKey: args['idempotency-key'] } : {}),
      ...(args['repo-root'] ? { repoRoot: args['repo-root'] } : {}),
      ...(args.session ? { sessionId: args.session } : {}),
      ...(args.agent ? { agent: args.agent } : {}),
    };
    if (args['dry-run']) {
      const report = await withColony(args, (colony) =>
        refusalsAsCliErrors(() => colony.plans.publish(document, { ...options, dryRun: true })),
      );
      if (args.json) printJson(report);
      else printLines(dryRunLines(report));
      if (report.refusal) throw new CliError(`${report.refusal}: plan ${report.plan_slug} would be refused`);
      return;
    }
    const result = await withColony(args, (colony) =>
      refusalsAsCliErrors(() => colony.plans.publish(document, options)),
    );
    if (args.json) return printJson(result);
    printLines(publishedLines(result));
  },
});

/** A tool refusal becomes `<CODE>: <message>` on one line, exit code 1. */
async function refusalsAsCliErrors<T>(fn: () => T | Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    if (isColonyError(error)) throw new CliError(`${error.code}: ${error.message}`);
    throw error;
  }
}

function publishedLines(result: PlanPublishResult): string[] {
  return [
    `published plan ${result.plan_slug}: spec task #${result.spec_task_id}${
      result.spec_change_path ? ` (${result.spec_change_path})` : ''
    }, ${result.subtasks.length} sub-tasks`,
    ...result.subtasks.map((s) => `  sub-${s.subtask_index}  #${s.task_id}  ${s.branch}  ${s.title}`),
  ];
}

function dryRunLines(report: PlanDryRun): string[] {
  const waves = report.validation.waves;
  const head = report.refusal
    ? `dry run: plan ${report.plan_slug} would be refused with ${report.refusal} (nothing written)`
    : `dry run: plan ${report.plan_slug} would publish ${report.subtasks.length} sub-tasks in ${
        waves ? Math.max(...waves) + 1 : 0
      } waves (nothing written)`;
  const findings = report.validation.summary.findings.filter((f) => f.severity !== 'info');
  return [
    head,
    ...report.subtasks.map(
      (s) =>
        `  sub-${s.subtask_index}  wave ${s.wave_index === undefined || s.wave_index === null ? '?' : s.wave_index + 1}  ${s.branch}  ${s.title}`,
    ),
    ...findings.map((f) => `${f.severity}: ${f.code}: ${f.message}`),
  ];
}

/**
 * @module runtime/workflows/drive-workflow
 * Drives a pending workflow run in this process until it completes, fails, pauses at an
 * approval gate or is cancelled from elsewhere: claim it (it reads `running` with this
 * process as driver), then one ready stage at a time, each stage's start and end stored
 * around it. A command's process group is stored while it runs, so a cancel from
 * another process can kill it and a retry after this process died can kill what it
 * left. SIGINT/SIGTERM kill the running stage's group and leave the run interrupted
 * (`retry` continues it).
 */
import { readyStages, substituteText, type WorkflowRunView, type WorkflowStage } from '@swarm/coordination';
import type { Colony } from '../../open-colony.js';
import { runAgentStep } from './_agent-step.js';
import { killGroup, self } from './_alive.js';
import { runCommandStep, type StepResult } from './_command-step.js';
import { WorkflowError } from './load-workflow.js';

export interface DriveOptions {
  readonly print: (line: string) => void;
}

export async function driveWorkflow(colony: Colony, runId: string, options: DriveOptions): Promise<WorkflowRunView> {
  const wf = colony.workflows;
  const claimed = await wf.claim(runId, self());
  if (!claimed.ok) throw new WorkflowError([{ kind: 'ValidationError', message: claimed.reason }]);
  let group: number | null = null;
  const onSignal = (signal: NodeJS.Signals) => {
    if (group !== null) killGroup(group);
    options.print(`run ${runId} interrupted by ${signal}: colony swarm workflow retry ${runId} continues it`);
    process.exit(130);
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    for (;;) {
      const view = (await wf.view(runId))!;
      if (view.state !== 'running') return view;
      const states = new Map(view.stages.map((s) => [s.name, s.state as never]));
      const next = readyStages(view.definition, states)[0];
      if (next === undefined) return await end(colony, view);
      const stage = view.definition.stages.find((s) => s.name === next)!;
      if (stage.type === 'approval') {
        await wf.pause(runId, next);
        const ask = stage.message ? ` (${stage.message})` : '';
        options.print(`stage ${next}: awaiting approval${ask}`);
        options.print(
          `run ${runId} awaiting approval: colony swarm workflow approve ${runId}, or reject ${runId} --feedback "..."`,
        );
        return (await wf.view(runId))!;
      }
      if (!(await wf.startStage(runId, next))) continue;
      options.print(`stage ${next}: running (${stage.type})`);
      const result = await runStage(colony, view, stage, async (pgid, started) => {
        group = pgid;
        await wf.recordGroup(runId, next, pgid, started);
      });
      group = null;
      const state = result.ok ? 'completed' : 'failed';
      if (!(await wf.finishStage(runId, next, { state, exit_code: result.exit_code, output: result.output }))) continue;
      options.print(`stage ${next}: ${state}${result.ok ? '' : ` (${firstLine(result.output)})`}`);
      if (!result.ok) {
        const gate = stage.type === 'check' ? 'check gate' : 'stage';
        await wf.finish(runId, 'failed', `${gate} ${next} failed: ${firstLine(result.output)}`);
        return (await wf.view(runId))!;
      }
    }
  } finally {
    process.removeListener('SIGINT', onSignal);
    process.removeListener('SIGTERM', onSignal);
  }
}

async function end(colony: Colony, view: WorkflowRunView): Promise<WorkflowRunView> {
  const open = view.stages.filter((s) => s.state !== 'completed').map((s) => s.name);
  if (open.length === 0) await colony.workflows.finish(view.run_id, 'completed');
  else await colony.workflows.finish(view.run_id, 'failed', `no stage can run: ${open.join(', ')} not completed`);
  return (await colony.workflows.view(view.run_id))!;
}

function runStage(
  colony: Colony,
  view: WorkflowRunView,
  stage: Exclude<WorkflowStage, { type: 'approval' }>,
  onGroup: (pgid: number, started: number | null) => void,
): Promise<StepResult> {
  const subs = { inputs: view.inputs, feedback: view.feedback };
  if (stage.type === 'agent') {
    const feedback = view.feedback ? `\n\nFeedback from the last review: ${view.feedback}` : '';
    return runAgentStep({
      home: colony.home,
      root: view.repo_root,
      agent: stage.agent,
      prompt: `${substituteText(stage.prompt, subs)}${feedback}`,
      max_turns: stage.max_turns,
      timeout: stage.timeout,
      session: `workflow-${view.run_id}-${stage.name}`,
    });
  }
  const env: Record<string, string> = { COLONY_WORKFLOW_RUN: view.run_id, COLONY_WORKFLOW_STAGE: stage.name };
  for (const [k, v] of Object.entries(view.inputs)) env[`COLONY_INPUT_${k.toUpperCase().replace(/\W/g, '_')}`] = v;
  if (view.feedback) env.COLONY_WORKFLOW_FEEDBACK = view.feedback;
  return runCommandStep(view.repo_root, stage, subs, { env, onGroup });
}

function firstLine(text: string): string {
  return text.split('\n')[0] ?? '';
}

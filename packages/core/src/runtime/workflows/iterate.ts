/**
 * @module runtime/workflows/iterate
 * The iteration engine (`colony swarm iterate`): each iteration runs one step on the task
 * (an agent or a command), then the probe, whose score decides whether the loop goes on
 * (coordination's `decide`: target, no_progress, max_iterations, error). Every iteration
 * is stored as it starts and ends, so `--resume <id>` continues after the last finished
 * one, with the numbering and the best score carried over (the no-progress window starts
 * afresh). Events go to `onEvent` (the CLI prints them, or one JSON line each).
 * `--dry-run` answers the plan and runs nothing.
 */
import { decide, type IterationConfig, type IterationRunView, parseScore, type StopReason } from '@swarm/coordination';
import { connectColony } from '../../connect-colony.js';
import type { Colony } from '../../open-colony.js';
import { runAgentStep } from './_agent-step.js';
import { driverAlive, killGroup, self } from './_alive.js';
import { runCommandStep, type StepResult } from './_command-step.js';
import { IterationConfigError, iterationConfigPath, loadIterationConfig } from './load-iteration.js';
import { repoRootOf, type WorkflowControlOptions } from './workflow-control.js';

export type IterationEvent =
  | { readonly event: 'plan'; readonly config: IterationConfig; readonly max_iterations: number; readonly path: string }
  | {
      readonly event: 'start';
      readonly run_id: string;
      readonly name: string;
      readonly first_iteration: number;
      readonly max_iterations: number;
    }
  | {
      readonly event: 'iteration';
      readonly run_id: string;
      readonly iteration: number;
      readonly exit_code: number | null;
      readonly score: number | null;
      readonly best_score: number | null;
      readonly improved: boolean;
    }
  | {
      readonly event: 'done';
      readonly done: true;
      readonly run_id: string;
      readonly reason: StopReason;
      readonly iterations: number;
      readonly best_score: number | null;
      readonly detail?: string;
    };

export interface IterateOptions extends WorkflowControlOptions {
  readonly config?: string;
  readonly configFile?: string;
  readonly resume?: string;
  readonly maxIterations?: number;
  readonly dryRun?: boolean;
  readonly onEvent: (event: IterationEvent) => void;
}

export async function iterate(o: IterateOptions): Promise<IterationEvent & { event: 'done' | 'plan' }> {
  const root = await repoRootOf(o.cwd);
  if (o.dryRun && !o.resume) {
    const path = iterationConfigPath(root, o.cwd, o);
    const config = loadIterationConfig(path);
    const plan = { event: 'plan' as const, config, max_iterations: o.maxIterations ?? config.max_iterations, path };
    o.onEvent(plan);
    return plan;
  }
  const colony = await connectColony({
    ...(o.home ? { home: o.home } : {}),
    ...(o.dbPath ? { dbPath: o.dbPath } : {}),
  });
  try {
    const run = o.resume ? await reopen(colony, o) : await create(colony, root, o);
    return await loop(colony, run, o);
  } finally {
    await colony.close();
  }
}

function create(colony: Colony, root: string, o: IterateOptions): Promise<IterationRunView> {
  const config = loadIterationConfig(iterationConfigPath(root, o.cwd, o));
  return colony.iterations.create(config, root, o.maxIterations ?? config.max_iterations, self());
}

async function reopen(colony: Colony, o: IterateOptions): Promise<IterationRunView> {
  const reopened = await colony.iterations.reopen(o.resume!, self(), o.maxIterations, driverAlive);
  if (!reopened.ok) throw new IterationConfigError(reopened.reason);
  return reopened.run;
}

async function loop(colony: Colony, run: IterationRunView, o: IterateOptions) {
  const { config } = run;
  const done = run.iterations.filter((i) => i.state !== 'running');
  const first = (done.at(-1)?.number ?? 0) + 1;
  o.onEvent({
    event: 'start',
    run_id: run.run_id,
    name: run.name,
    first_iteration: first,
    max_iterations: run.max_iterations,
  });
  let state = { best: run.best_score, stale: 0 };
  let group: number | null = null;
  const onSignal = () => {
    if (group !== null) killGroup(group);
    process.exit(130);
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  const finish = async (reason: StopReason, iterations: number, detail?: string) => {
    await colony.iterations.stop(run.run_id, reason);
    const event = {
      event: 'done' as const,
      done: true as const,
      run_id: run.run_id,
      reason,
      iterations,
      best_score: state.best,
      ...(detail ? { detail } : {}),
    };
    o.onEvent(event);
    return event;
  };
  try {
    if (first > run.max_iterations) return await finish('max_iterations', first - 1);
    const onGroup = (pgid: number) => {
      group = pgid;
    };
    for (let n = first; ; n++) {
      await colony.iterations.start(run.run_id, n);
      const step = await runStep(colony, run, n, onGroup);
      const probe = step.failed ? null : await runCommandStep(run.repo_root, config.probe, { inputs: {} }, { onGroup });
      group = null;
      const score = probe ? parseScore(probe.stdout, config.probe) : null;
      const decision = decide(state, score, n, run.max_iterations, config.progress);
      state = { best: decision.best, stale: decision.stale };
      const output = [step.result.output, probe ? `probe: ${probe.output}` : ''].filter(Boolean).join('\n');
      const result = {
        exit_code: step.result.exit_code,
        score,
        improved: decision.improved,
        output,
        failed: step.failed,
      };
      await colony.iterations.finish(run.run_id, n, result, state.best);
      o.onEvent({
        event: 'iteration',
        run_id: run.run_id,
        iteration: n,
        exit_code: step.result.exit_code,
        score,
        best_score: state.best,
        improved: decision.improved,
      });
      if (decision.stop) {
        const why = step.failed
          ? step.result.output.split('\n')[0]
          : score === null
            ? `the probe gave no score (${probe?.output.split('\n')[0] ?? ''})`
            : undefined;
        return await finish(decision.stop, n, decision.stop === 'error' ? why : undefined);
      }
    }
  } finally {
    process.removeListener('SIGINT', onSignal);
    process.removeListener('SIGTERM', onSignal);
  }
}

/** One step; `failed` only when it could not do its work (an agent that errored), not a non-zero exit. */
async function runStep(
  colony: Colony,
  run: IterationRunView,
  n: number,
  onGroup: (pgid: number) => void,
): Promise<{ result: StepResult; failed: boolean }> {
  const { config } = run;
  if (config.step) {
    const env = { COLONY_ITERATION_TASK: config.task, COLONY_ITERATION: String(n), COLONY_ITERATION_RUN: run.run_id };
    return {
      result: await runCommandStep(run.repo_root, config.step, { inputs: {} }, { env, onGroup }),
      failed: false,
    };
  }
  const result = await runAgentStep({
    home: colony.home,
    root: run.repo_root,
    agent: config.agent,
    prompt: `${config.task}\n\n(Iteration ${n} of at most ${run.max_iterations}.)`,
    max_turns: config.max_turns,
    session: `iterate-${run.run_id}-${n}`,
  });
  return { result, failed: !result.ok };
}

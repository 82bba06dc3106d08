/**
 * @module runtime/workflows/workflow-control
 * What `colony swarm workflow` does, one function per sub-command, each opening colony
 * on the given store: list and validate definitions, start a run (and drive it here),
 * status and show, approve / reject (then drive the run on here, to the next gate or
 * the end), retry (killing what an interrupted driver left running first), cancel
 * (killing the running stage's process group), resume (drive a pending run: what
 * `run --detach` starts in the background).
 */
import {
  type GateResult,
  parseInputPairs,
  resolveInputs,
  type WorkflowRunView,
  withLiveness,
} from '@swarm/coordination';
import { killOwnedGroup, openRepo } from '@swarm/worktree';
import { connectColony } from '../../connect-colony.js';
import type { Colony } from '../../open-colony.js';
import { driverAlive } from './_alive.js';
import { driveWorkflow } from './drive-workflow.js';
import { loadWorkflow, requireWorkflow, WorkflowError, workflowNames } from './load-workflow.js';

export interface WorkflowControlOptions {
  readonly cwd: string;
  readonly home?: string;
  readonly dbPath?: string;
  readonly print?: (line: string) => void;
}

export async function repoRootOf(cwd: string): Promise<string> {
  return openRepo(cwd).then(
    (r) => r.root,
    () => cwd,
  );
}

async function withColony<T>(o: WorkflowControlOptions, fn: (colony: Colony, root: string) => Promise<T> | T) {
  const root = await repoRootOf(o.cwd);
  const colony = await connectColony({
    ...(o.home ? { home: o.home } : {}),
    ...(o.dbPath ? { dbPath: o.dbPath } : {}),
  });
  try {
    return await fn(colony, root);
  } finally {
    await colony.close();
  }
}

const refused = (reason: string) => new WorkflowError([{ kind: 'ValidationError', message: reason }]);

export interface WorkflowListEntry {
  readonly name: string;
  readonly valid: boolean;
  readonly stages: number;
  readonly description: string | null;
  readonly problems: readonly string[];
}

export async function listWorkflows(o: WorkflowControlOptions): Promise<WorkflowListEntry[]> {
  const root = await repoRootOf(o.cwd);
  return workflowNames(root).map((name) => {
    const loaded = loadWorkflow(root, name);
    return loaded.ok
      ? {
          name,
          valid: true,
          stages: loaded.definition.stages.length,
          description: loaded.definition.description ?? null,
          problems: [],
        }
      : { name, valid: false, stages: 0, description: null, problems: loaded.problems.map((p) => p.message) };
  });
}

export async function validateWorkflowByName(o: WorkflowControlOptions, name: string) {
  return loadWorkflow(await repoRootOf(o.cwd), name);
}

/** Creates a run; `drive` false leaves it pending (for a detached driver). */
export async function startWorkflow(
  o: WorkflowControlOptions & { readonly name: string; readonly inputs: readonly string[]; readonly drive: boolean },
): Promise<WorkflowRunView> {
  return withColony(o, async (colony, root) => {
    const def = requireWorkflow(root, o.name);
    const pairs = parseInputPairs(o.inputs);
    const inputs = pairs.ok ? resolveInputs(def, pairs.inputs) : pairs;
    if (!inputs.ok) throw refused(inputs.reason);
    const run = await colony.workflows.create(def, root, inputs.inputs);
    o.print?.(`run ${run.run_id} started: ${def.name} (${def.stages.map((s) => s.name).join(', ')})`);
    return o.drive ? await driveWorkflow(colony, run.run_id, { print: o.print ?? (() => {}) }) : run;
  });
}

export async function workflowStatus(o: WorkflowControlOptions, runId?: string): Promise<WorkflowRunView[]> {
  return withColony(o, async (colony, root) => {
    if (runId === undefined) return (await colony.workflows.list(root)).map((v) => withLiveness(v, driverAlive));
    const view = await colony.workflows.view(runId);
    if (!view) throw refused(`workflow run not found: ${runId}`);
    return [withLiveness(view, driverAlive)];
  });
}

type Gate = (colony: Colony) => Promise<GateResult>;

/** Applies an operator transition, kills the groups it answers, then drives the run on when it is pending. */
async function operate(o: WorkflowControlOptions, gate: Gate, drive: boolean): Promise<WorkflowRunView> {
  return withColony(o, async (colony) => {
    const result = await gate(colony);
    if (!result.ok) throw refused(result.reason);
    for (const g of result.groups) {
      if (await killOwnedGroup(g.pgid, g.started, result.run.repo_root))
        o.print?.(`killed stage ${g.stage}'s processes`);
    }
    if (!drive || result.run.state !== 'pending') return result.run;
    return driveWorkflow(colony, result.run.run_id, { print: o.print ?? (() => {}) });
  });
}

export const approveWorkflow = (o: WorkflowControlOptions, runId: string, stage?: string) =>
  operate(o, (c) => c.workflows.approve(runId, stage), true);

export const rejectWorkflow = (o: WorkflowControlOptions, runId: string, feedback: string | null, stage?: string) =>
  operate(o, (c) => c.workflows.reject(runId, feedback, stage), true);

export const retryWorkflow = (o: WorkflowControlOptions, runId: string, stage?: string) =>
  operate(o, (c) => c.workflows.retry(runId, driverAlive, stage), true);

export const cancelWorkflow = (o: WorkflowControlOptions, runId: string) =>
  operate(o, (c) => c.workflows.cancel(runId, driverAlive), false);

/** Drives a pending run (the detached driver of `run --detach`). */
export async function resumeWorkflow(o: WorkflowControlOptions, runId: string): Promise<WorkflowRunView> {
  return withColony(o, (colony) => driveWorkflow(colony, runId, { print: o.print ?? (() => {}) }));
}

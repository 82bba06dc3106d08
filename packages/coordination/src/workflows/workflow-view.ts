/**
 * @module workflows/workflow-view
 * What a workflow run looks like to callers (`status`, `show`, `--json`): rows made
 * into a view, and `withLiveness`, which tells an interrupted run (its driver died
 * while it read `running`) and its interrupted stage from a live one.
 */
import type { WorkflowRunRow, WorkflowStageRow } from '@swarm/storage';
import type { WorkflowDefinition } from './workflow-definition';

export type WorkflowRunState =
  | 'pending'
  | 'running'
  | 'awaiting_approval'
  | 'completed'
  | 'failed'
  | 'cancelled'
  | 'interrupted';

export interface WorkflowStageView {
  readonly name: string;
  readonly type: string;
  /** A stage state (stage-graph.ts), or `interrupted` when its driver died while it ran. */
  readonly state: string;
  readonly attempts: number;
  readonly exit_code: number | null;
  readonly output: string | null;
  readonly started_at: number | null;
  readonly finished_at: number | null;
  /** While running: its command's process group (pgid and the leader's start time). */
  readonly group: { readonly pgid: number; readonly started: number } | null;
}

export interface WorkflowRunView {
  readonly run_id: string;
  readonly name: string;
  readonly repo_root: string;
  readonly state: WorkflowRunState;
  readonly inputs: Readonly<Record<string, string>>;
  readonly feedback: string | null;
  readonly error: string | null;
  /** The process driving it (while running). */
  readonly driver: { readonly pid: number; readonly started: number | null } | null;
  readonly created_at: number;
  readonly updated_at: number;
  readonly finished_at: number | null;
  readonly stages: readonly WorkflowStageView[];
  readonly definition: WorkflowDefinition;
}

export function runView(run: WorkflowRunRow, stages: readonly WorkflowStageRow[]): WorkflowRunView {
  return {
    run_id: run.id,
    name: run.name,
    repo_root: run.repoRoot,
    state: run.state as WorkflowRunState,
    inputs: JSON.parse(run.inputs) as Record<string, string>,
    feedback: run.feedback,
    error: run.error,
    driver: run.pid === null ? null : { pid: run.pid, started: run.pidStarted },
    created_at: run.createdAt,
    updated_at: run.updatedAt,
    finished_at: run.finishedAt,
    definition: JSON.parse(run.definition) as WorkflowDefinition,
    stages: stages.map((s) => ({
      name: s.name,
      type: s.type,
      state: s.state,
      attempts: s.attempts,
      exit_code: s.exitCode,
      output: s.output,
      started_at: s.startedAt,
      finished_at: s.finishedAt,
      group: s.pgid !== null && s.pgidStarted !== null ? { pgid: s.pgid, started: s.pgidStarted } : null,
    })),
  };
}

/** Whether a driver process still lives (core: the pid with the recorded start time). */
export type DriverAlive = (pid: number, started: number | null) => boolean;

/** A `running` run whose driver is gone reads `interrupted`, and so does its running stage. */
export function withLiveness(view: WorkflowRunView, alive: DriverAlive): WorkflowRunView {
  if (view.state !== 'running') return view;
  if (view.driver && alive(view.driver.pid, view.driver.started)) return view;
  return {
    ...view,
    state: 'interrupted',
    stages: view.stages.map((s) => (s.state === 'running' ? { ...s, state: 'interrupted' } : s)),
  };
}

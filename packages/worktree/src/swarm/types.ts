/**
 * @module swarm/types
 * The swarm engine's input and answers, in seed 004's words (snake_case, as on the
 * wire), so the tool layer passes them through unchanged.
 */
import type { MergeStrategy } from '../merge';
import type { SandboxPolicy } from '../sandbox/policy';

export interface SwarmTaskSpec {
  readonly name: string;
  readonly command: string;
  readonly workdir?: string | undefined;
  readonly env?: Readonly<Record<string, string>> | undefined;
  readonly depends_on?: readonly string[] | undefined;
}

export interface SwarmSpec {
  readonly repo_root: string;
  readonly base_ref: string;
  readonly tasks: readonly SwarmTaskSpec[];
  readonly env_vars?: Readonly<Record<string, string>> | undefined;
  readonly merge_strategy?: MergeStrategy | undefined;
  readonly merge_target?: string | undefined;
  readonly verify?: string | undefined;
  readonly max_parallel: number;
  readonly timeout_secs: number;
  readonly cleanup: boolean;
  /** Each task's command inside the OS sandbox, its worktree writable (colony's `sandbox` setting). */
  readonly sandbox?: SandboxPolicy | undefined;
}

/** `interrupted`: the run's process died before the worker finished (set by whoever finds it dead). */
export type WorkerState =
  | 'pending'
  | 'waiting'
  | 'executing'
  | 'completed'
  | 'failed'
  | 'timed_out'
  | 'skipped'
  | 'interrupted';
export type RunState = 'running' | 'completed' | 'failed' | 'interrupted';

export interface SwarmTaskResult {
  name: string;
  workspace_id: string | null;
  success: boolean;
  exit_code: number | null;
  stdout: string;
  stderr: string;
  elapsed_ms: number;
  branch: string;
  timed_out: boolean;
  skipped: boolean;
  commits: number;
}

export interface SwarmMergeResult {
  source: string;
  success: boolean;
  commits_applied: number;
  conflicts: string[];
  error?: string;
  log_tail?: string;
}

export interface SwarmRunResult {
  swarm_id: string;
  tasks: SwarmTaskResult[];
  merge?: { strategy: MergeStrategy; target_workspace: string; results: SwarmMergeResult[] };
  summary: {
    total_tasks: number;
    succeeded: number;
    failed: number;
    total_elapsed_ms: number;
    workers_destroyed: number;
  };
}

/** A worker's progress, as recorded while the run goes. */
export interface WorkerProgress {
  readonly name: string;
  readonly state: WorkerState;
  readonly workspace_id: string | null;
  readonly branch: string;
  readonly exit_code: number | null;
  readonly elapsed_ms: number;
  /** Base commit + dependencies merged: where the task's own commits start. */
  readonly start_commit: string | null;
  /** While executing: the command's process group id (its shell's pid), so a recovery can kill it. */
  readonly pgid: number | null;
  /** The group leader's start time (see process-groups.ts), to tell it from a later process with its pid. */
  readonly pgid_started: number | null;
}

/** Told about every change, so a store can answer swarm_status across restarts. */
export interface SwarmRecorder {
  worker(progress: WorkerProgress): Promise<void>;
  finished(result: SwarmRunResult, state: 'completed' | 'failed'): Promise<void>;
}

/**
 * @module swarm/tui/model
 * What the dashboard shows, as plain data: one snapshot of a running session read
 * from its files (`.colony/session.json`, the status file, the agents' logs) and the
 * plans and workflow runs colony holds for the repository. The components render a snapshot; they
 * never read files themselves.
 */

export interface AgentView {
  readonly name: string;
  /** A state of seed 003's machine (Running, CoolingDown, Stopped, ...), as the status file has it. */
  readonly state: string;
  readonly session_seq: number;
  readonly stop_reason: string | null;
  /** The last lines of the agent's log of this session, oldest first. */
  readonly log: readonly string[];
}

export interface SessionView {
  readonly id: string;
  readonly pid: number;
  /** False once the session runner has exited (or the session ended). */
  readonly active: boolean;
}

/** A state change the dashboard saw between two reads of the status file. */
export interface DashboardEvent {
  readonly at: string;
  readonly text: string;
}

export interface TaskLine {
  readonly plan_slug: string;
  readonly subtask_index: number;
  readonly status: string;
  readonly title: string;
}

export interface WorkflowLine {
  readonly run_id: string;
  readonly name: string;
  readonly state: string;
  /** The stage under way (or next); null once the run ended. */
  readonly stage: string | null;
  /** Stages waiting for `colony swarm workflow approve`. */
  readonly awaiting: readonly string[];
}

export interface Snapshot {
  readonly session: SessionView | null;
  /** Sorted by name (seed 003's TuiApp.agents). */
  readonly agents: readonly AgentView[];
  readonly events: readonly DashboardEvent[];
  /** Sub-tasks of the repository's active plans (the Ctrl+T overlay); empty before the first read. */
  readonly tasks: readonly TaskLine[];
  /** The repository's workflow runs, newest first (the Ctrl+W overlay); empty before the first read. */
  readonly workflows: readonly WorkflowLine[];
}

export const EMPTY_SNAPSHOT: Snapshot = { session: null, agents: [], events: [], tasks: [], workflows: [] };

/** Seed 003's agent panel icons: ● Running, ○ CoolingDown, ■ Stopped; a dot for the other states. */
export function stateIcon(state: string): string {
  if (state === 'Running' || state === 'Interrupting') return '●';
  if (state === 'CoolingDown') return '○';
  if (state === 'Stopped') return '■';
  return '·';
}

/** A log line with its ISO date shortened to the time of day (`18:30:32 text`). */
export function shortLine(line: string): string {
  return line.replace(/^\d{4}-\d\d-\d\dT(\d\d:\d\d:\d\d)(\.\d+)?Z /, '$1 ');
}

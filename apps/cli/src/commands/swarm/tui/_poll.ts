/**
 * @module swarm/tui/poll
 * Reads a session from another process's files on a timer (the session runner may be
 * any process: `colony swarm start` in the background, or a headless one): the status
 * file through core's `readSessionStatus`, each agent's log tail, and every few seconds
 * the plans' sub-tasks and the workflow runs. State changes seen between two reads become events.
 */
import { join } from 'node:path';
import type { AgentView, DashboardEvent, SessionView, Snapshot, TaskLine, WorkflowLine } from './_model';
import type { SnapshotStore } from './_store';
import { tailLines } from './_tail';

/** What core's `readSessionStatus` returns (the fields read here). */
export interface StatusRead {
  readonly session: SessionView | null;
  readonly agents: readonly Record<string, unknown>[];
}

export interface PollOptions {
  readonly root: string;
  readonly readStatus: (root: string) => StatusRead;
  readonly readTasks?: () => Promise<TaskLine[]>;
  readonly readWorkflows?: () => Promise<WorkflowLine[]>;
  readonly intervalMs?: number;
  readonly tasksEveryMs?: number;
  readonly logLines?: number;
}

const MAX_EVENTS = 200;

export function pollSession(store: SnapshotStore, o: PollOptions): { stop(): void } {
  let events: DashboardEvent[] = [];
  let tasks: readonly TaskLine[] = [];
  let workflows: readonly WorkflowLine[] = [];
  let states = new Map<string, string>();
  let sessionId: string | null = null;
  let last = '';
  const event = (text: string) => {
    events = [...events, { at: new Date().toISOString().slice(11, 19), text }].slice(-MAX_EVENTS);
  };
  const read = () => {
    const status = o.readStatus(o.root);
    if (sessionId && !status.session?.active) event(`session ${sessionId} ended`);
    sessionId = status.session?.active ? status.session.id : null;
    const agents = status.session ? agentViews(o.root, status.session.id, status.agents, o.logLines ?? 50) : [];
    const next = new Map(agents.map((a) => [a.name, a.state]));
    for (const a of agents) {
      const before = states.get(a.name);
      if (before !== a.state) event(`${a.name}: ${before ? `${before} -> ` : ''}${a.state} (seq ${a.session_seq})`);
    }
    states = next;
    const snapshot: Snapshot = { session: status.session, agents, events, tasks, workflows };
    const key = JSON.stringify(snapshot);
    if (key !== last) store.set(snapshot);
    last = key;
  };
  const readTasks = async () => {
    tasks = (await o.readTasks?.().catch(() => tasks)) ?? [];
    workflows = (await o.readWorkflows?.().catch(() => workflows)) ?? [];
  };
  read();
  void readTasks().then(read);
  const timer = setInterval(read, o.intervalMs ?? 250);
  const tasksTimer = setInterval(() => void readTasks(), o.tasksEveryMs ?? 2000);
  return {
    stop() {
      clearInterval(timer);
      clearInterval(tasksTimer);
    },
  };
}

function agentViews(root: string, id: string, raw: readonly Record<string, unknown>[], lines: number): AgentView[] {
  const logs = join(root, '.colony', 'logs', id);
  return raw
    .map((a) => {
      const name = typeof a.name === 'string' ? a.name : '?';
      return {
        name,
        state: typeof a.state === 'string' ? a.state : 'unknown',
        session_seq: typeof a.session_seq === 'number' ? a.session_seq : 0,
        stop_reason: typeof a.stop_reason === 'string' ? a.stop_reason : null,
        log: tailLines(join(logs, `${name}.log`), lines),
      };
    })
    .sort((a, b) => a.name.localeCompare(b.name));
}

/**
 * A swarm session for the viewer's browser test, written as `colony swarm start` leaves
 * it: the runtime's own `writeSession` (session.json and the lock with the PID) and the
 * status file the session runner rewrites on every state change (`writeAtomic` at
 * `sessionPaths(root).status`, `{ session, agents, plans }`), plus a plan sub-task
 * claimed in the store by one agent's colony session, as an agent claims one.
 */
import { colonySessionId, type SessionInfo, sessionPaths, writeAtomic, writeSession } from '@swarm/runtime';
import { type SeededStore, T0, withStore } from './_viewer-seed';

const MINUTE = 60_000;

export const SWARM_SESSION = '20260401-5a1e';
export const SWARM_PLAN = 'runtime-demo';
export const SWARM_SUBTASK = 'Wire the widget worker';
export const FATAL_REASON =
  'agent stopped after 5 consecutive errors (max_consecutive_errors 5); last error: 500 Internal Server Error';

/** One agent as the session runner's status file lists it. */
export interface AgentStatusEntry {
  readonly name: string;
  readonly state: string;
  readonly session_seq: number;
  readonly consecutive_errors: number;
  readonly total_errors: number;
  readonly last_activity: string;
  readonly stop_reason: string | null;
  readonly tokens: number;
  readonly cost_usd: number;
}

export const agentEntry = (
  name: string,
  state: string,
  session_seq: number,
  errors: [consecutive: number, total: number],
  minutesAgo: number,
  stop_reason: string | null = null,
): AgentStatusEntry => ({
  name,
  state,
  session_seq,
  consecutive_errors: errors[0],
  total_errors: errors[1],
  last_activity: new Date(T0 - minutesAgo * MINUTE).toISOString(),
  stop_reason,
  tokens: 1200 * session_seq,
  cost_usd: 0.002 * session_seq,
});

export const SWARM_AGENTS: readonly AgentStatusEntry[] = [
  agentEntry('alpha', 'Running', 3, [0, 1], 0.5),
  agentEntry('beta', 'CoolingDown', 2, [2, 3], 1),
  agentEntry('supervisor', 'Stopped', 5, [5, 5], 4, FATAL_REASON),
];

/** session.json and the lock, with `pid` as the session runner (alive: active; gone: not running). */
export function writeSwarmSession(repo: string, db: string, pid: number): SessionInfo {
  const info: SessionInfo = {
    id: SWARM_SESSION,
    base_commit: '4f1c2d3e5a6b7c8d9e0f1a2b3c4d5e6f7a8b9c0d',
    base_branch: 'main',
    agents: SWARM_AGENTS.map((a) => a.name),
    supervisor: 'supervisor',
    started_at: new Date(T0 - 20 * MINUTE).toISOString(),
    pid,
    db_path: db,
    stashed: false,
  };
  writeSession(repo, info);
  return info;
}

/** The status file, replaced atomically as the session runner does after each state change. */
export function writeSwarmStatus(repo: string, info: SessionInfo, agents: readonly AgentStatusEntry[]): void {
  const status = {
    session: { id: info.id, base_commit: info.base_commit, started_at: info.started_at, pid: info.pid, active: true },
    agents,
    plans: { available: 0, claimed: 0, completed: 0 },
  };
  writeAtomic(sessionPaths(repo).status, `${JSON.stringify(status, null, 2)}\n`);
}

/** A two-sub-task plan whose first sub-task alpha's colony session claimed two minutes before T0. */
export async function claimSwarmSubtask(seed: SeededStore): Promise<string> {
  const session_id = colonySessionId(SWARM_SESSION, 'alpha');
  await withStore(seed, T0 - 2 * MINUTE, async (call) => {
    await call('task_plan_publish', {
      repo_root: seed.repo,
      slug: SWARM_PLAN,
      session_id: colonySessionId(SWARM_SESSION, 'operator'),
      agent: 'operator',
      title: 'Widget worker',
      problem: 'Widgets are rendered on request.',
      acceptance_criteria: ['A worker renders widgets'],
      subtasks: [
        { title: SWARM_SUBTASK, description: 'd', file_scope: ['apps/worker/src/widgets.ts'] },
        { title: 'Document the widget worker', description: 'd', file_scope: ['docs/worker.md'], depends_on: [0] },
      ],
    });
    await call('task_plan_claim_subtask', { plan_slug: SWARM_PLAN, subtask_index: 0, session_id, agent: 'alpha' });
  });
  return session_id;
}

/**
 * @module runtime/_status
 * What `colony swarm status` reads: the session files and the session runner's status
 * file, plus plan counts from colony (task_plan_list of the repository).
 */
import { readFileSync } from 'node:fs';
import { checkSession, sessionPaths, type ToolCaller } from '@swarm/runtime';

export interface SwarmSessionStatus {
  readonly session: {
    readonly id: string;
    readonly base_commit: string;
    readonly started_at: string;
    readonly pid: number;
    readonly active: boolean;
  } | null;
  readonly agents: readonly Record<string, unknown>[];
  readonly plans: { readonly available: number; readonly claimed: number; readonly completed: number };
}

export async function planCounts(
  caller: ToolCaller,
  repo_root: string,
): Promise<{ available: number; claimed: number; completed: number }> {
  const out = await caller.callTool('task_plan_list', { repo_root, limit: 100 });
  const counts = { available: 0, claimed: 0, completed: 0 };
  if (!out.ok) return counts;
  for (const plan of out.value as { status: string; subtask_counts: typeof counts }[]) {
    if (plan.status !== 'active') continue;
    counts.available += plan.subtask_counts.available;
    counts.claimed += plan.subtask_counts.claimed;
    counts.completed += plan.subtask_counts.completed;
  }
  return counts;
}

/** The session of `root` as the status file last recorded it; active = its PID is alive. */
export function readSessionStatus(root: string): Omit<SwarmSessionStatus, 'plans'> {
  const check = checkSession(root);
  if (check.state === 'none' || !check.info) return { session: null, agents: [] };
  const info = check.info;
  let agents: Record<string, unknown>[] = [];
  try {
    agents = (JSON.parse(readFileSync(sessionPaths(root).status, 'utf8')) as { agents: Record<string, unknown>[] })
      .agents;
  } catch {
    agents = info.agents.map((name) => ({ name, state: 'Initializing' }));
  }
  return {
    session: {
      id: info.id,
      base_commit: info.base_commit,
      started_at: info.started_at,
      pid: info.pid,
      active: check.state === 'active',
    },
    agents,
  };
}

/**
 * @module viewer/runtime-panel
 * The swarm runtime (`colony swarm start`) of each repository in scope: the session as
 * its files say (`.colony/session.json`, the lock's PID alive or not, the
 * session runner's status file), read by core's own `readSessionStatus`, which only reads;
 * the plan counts `colony swarm status` shows; and per agent its state, session seq,
 * error counters, last activity, stop reason and current sub-task. An agent acts in
 * colony as its own session (`colonySessionId`), so its current sub-task is the plan
 * sub-task that session has claimed. The repositories are the lanes panel's
 * (`hivemind`'s repo_roots for the same scope). The runtime entry is loaded on the first
 * read, so a viewer never loads it before the page asks.
 */
import type { SwarmSessionStatus } from '@swarm/core/runtime';
import type { HivemindResult, PlanSummary } from '@swarm/tools';
import { given, type ReadTool } from './_reader';
import type { ViewerScope } from './_scope';

export interface RuntimeSubtaskView {
  readonly plan_slug: string;
  readonly subtask_index: number;
  readonly title: string;
}

export interface RuntimeAgentView {
  readonly name: string;
  /** A state of seed 003's machine (Running, CoolingDown, Stopped, ...), as the status file has it. */
  readonly state: string;
  readonly session_seq: number;
  readonly consecutive_errors: number;
  readonly total_errors: number;
  /** ISO 8601, or null before the session runner's first status write. */
  readonly last_activity: string | null;
  readonly stop_reason: string | null;
  /** The colony session the agent acts as (`swarm-<session>-<agent>`). */
  readonly colony_session_id: string;
  /** Plan sub-tasks of this repository claimed by that session and not completed. */
  readonly current_subtasks: readonly RuntimeSubtaskView[];
}

export interface RuntimeRepoView {
  readonly repo_root: string;
  /** As `colony swarm status`; `active` is false for a session left behind by a dead session runner. */
  readonly session: SwarmSessionStatus['session'];
  /** Sub-task counts of the repository's active plans (as `colony swarm status`); null without a session. */
  readonly plans: SwarmSessionStatus['plans'] | null;
  readonly agents: readonly RuntimeAgentView[];
}

export interface RuntimePanel {
  readonly repos: readonly RuntimeRepoView[];
}

/** Plans read per repository for the agents' sub-tasks (task_plan_list's maximum, as planCounts). */
const PLAN_LIMIT = 100;

type RuntimeEntry = typeof import('@swarm/core/runtime');
let runtimeEntry: Promise<RuntimeEntry> | undefined;

export async function runtimePanel(read: ReadTool, scope: ViewerScope): Promise<RuntimePanel> {
  const { repo_roots } = await read<HivemindResult>('hivemind', given({ repo_root: scope.repoRoot, limit: 1 }));
  runtimeEntry ??= import('@swarm/core/runtime');
  const runtime = await runtimeEntry;
  const repos: RuntimeRepoView[] = [];
  for (const root of repo_roots) repos.push(await repoView(read, runtime, root));
  return { repos };
}

async function repoView(read: ReadTool, runtime: RuntimeEntry, repo_root: string): Promise<RuntimeRepoView> {
  const status = runtime.readSessionStatus(repo_root);
  if (!status.session) return { repo_root, session: null, plans: null, agents: [] };
  const session = status.session;
  // The one count `colony swarm status` shows, fed through the viewer's read-only door.
  const plans = await runtime.planCounts(
    {
      callTool: async (name, args) => ({ ok: true, text: '', value: await read(name, args) }),
    },
    repo_root,
  );
  const claimed = claimedSubtasks(await read<PlanSummary[]>('task_plan_list', { repo_root, limit: PLAN_LIMIT }));
  const agents = status.agents.map((raw) => {
    const name = str(raw.name) ?? '?';
    const colony_session_id = runtime.colonySessionId(session.id, name);
    return {
      name,
      state: str(raw.state) ?? 'unknown',
      session_seq: num(raw.session_seq),
      consecutive_errors: num(raw.consecutive_errors),
      total_errors: num(raw.total_errors),
      last_activity: str(raw.last_activity),
      stop_reason: str(raw.stop_reason),
      colony_session_id,
      current_subtasks: claimed.get(colony_session_id) ?? [],
    };
  });
  return { repo_root, session, plans, agents };
}

/** Claimed sub-tasks of active plans, by the colony session holding them. */
function claimedSubtasks(plans: readonly PlanSummary[]): Map<string, RuntimeSubtaskView[]> {
  const bySession = new Map<string, RuntimeSubtaskView[]>();
  for (const plan of plans) {
    if (plan.status !== 'active') continue;
    for (const s of plan.subtasks) {
      if (s.status !== 'claimed' || !s.claimed_by_session_id) continue;
      const list = bySession.get(s.claimed_by_session_id) ?? [];
      list.push({ plan_slug: plan.plan_slug, subtask_index: s.subtask_index, title: s.title });
      bySession.set(s.claimed_by_session_id, list);
    }
  }
  return bySession;
}

// The status file is another process's JSON: take each field only when it has the right type.
const str = (value: unknown): string | null => (typeof value === 'string' ? value : null);
const num = (value: unknown): number => (typeof value === 'number' && Number.isFinite(value) ? value : 0);

/**
 * Test builder for claim and baton suites: a repository with one task thread joined by
 * claude-1 (claude) and codex-1 / codex-2 (codex), plus short calls and row readers.
 */
import { type Baton, countBatons, countClaims, type FileClaim, getBaton, sessionClaims } from '@swarm/storage';
import type { Fixture } from './_fixture';

export interface Team {
  readonly repo: string;
  readonly taskId: number;
  join(sessionId: string, agent: string, branch?: string): Promise<number>;
  claim(sessionId: string, filePath: string): Promise<{ observation_id: number }>;
  handOff(args?: Record<string, unknown>): Promise<number>;
  relay(args?: Record<string, unknown>): Promise<{ relay_observation_id: number; warning?: string }>;
  baton(id: number): Baton;
  /** Every claim row of a session on the team's task, oldest first. */
  claims(sessionId: string): FileClaim[];
  /** Observations, claims per state and batons per status: what a refused call must leave unchanged. */
  counts(): Record<string, number>;
}

export async function createTeam(fx: Fixture): Promise<Team> {
  const repo = fx.repo('repo');
  const join = async (session_id: string, agent: string, branch = 'main') =>
    (await fx.ok<{ task_id: number }>('task_thread', { repo_root: repo, branch, session_id, agent })).task_id;
  const taskId = await join('claude-1', 'claude');
  await join('codex-1', 'codex');
  await join('codex-2', 'codex');
  return {
    repo,
    taskId,
    join,
    claim: (session_id, file_path) => fx.ok('task_claim_file', { task_id: taskId, session_id, file_path }),
    handOff: async (args = {}) =>
      (
        await fx.ok<{ handoff_observation_id: number }>('task_hand_off', {
          task_id: taskId,
          session_id: 'claude-1',
          to_agent: 'codex',
          summary: 'Parser landed; codex: wire the CLI.',
          next_steps: ['wire the CLI'],
          transferred_files: ['src/a.ts'],
          ...args,
        })
      ).handoff_observation_id,
    relay: (args = {}) =>
      fx.ok('task_relay', {
        task_id: taskId,
        session_id: 'claude-1',
        reason: 'quota',
        one_line: 'Docs half-written; finish the relay section.',
        base_branch: 'main',
        ...args,
      }),
    baton: (id) => {
      const baton = getBaton(fx.store, id);
      if (!baton) throw new Error(`no baton ${id}`);
      return baton;
    },
    claims: (sessionId) =>
      sessionClaims(fx.store, taskId, sessionId, ['active', 'handoff_pending', 'released', 'weak_expired']),
    counts: () => {
      const out: Record<string, number> = { observations: fx.observations() };
      for (const state of ['active', 'handoff_pending', 'released', 'weak_expired'] as const) {
        out[`claims_${state}`] = countClaims(fx.store, state);
      }
      for (const status of ['pending', 'accepted', 'cancelled', 'expired'] as const) {
        out[`batons_${status}`] = countBatons(fx.store, status);
      }
      return out;
    },
  };
}

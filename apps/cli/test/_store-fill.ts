/**
 * A store filled through real tool calls, for the store transfer tests: the viewer seed
 * (plans, claims, handoffs, messages, receipts) plus shared context, the queue, the mesh,
 * profiles, proposals, linked tasks and a decision, so every kind of value (JSON text
 * with non-ASCII and big integers, booleans, reals, blobs) is exported.
 */
import { tmpdir } from 'node:os';
import { manualClock, openColony } from '@swarm/core';
import { T0 } from './_viewer-seed';

/** Fills the seeded store at `db` (home `home`, git repo `repo`) by tool calls. */
export async function fillStore(home: string, db: string, repo: string): Promise<void> {
  const lib = openColony({ home, dbPath: db, clock: manualClock(T0), roots: [tmpdir()] });
  const call = async (name: string, args: Record<string, unknown>) => {
    const outcome = await lib.handleToolCall(name, args);
    if (!outcome.ok) throw new Error(`${name}: ${outcome.text}`);
    return outcome.value as Record<string, unknown>;
  };
  try {
    await call('ctx_put', { agent: 'Gemini', key: 'k.1', value: { text: 'Grüße 🌍 \u2028 "quoted"', n: 2 ** 53 + 2 } });
    await call('coord_enqueue', { agent: 'Orchestrator', kind: 'scan_docs', payload: { dir: 'docs' } });
    await call('push_context', {
      agent_name: 'Collector',
      key: 'metrics',
      value: { users: 1500 },
      subscribers: ['Analyst'],
    });
    await call('send_message_to_agent', { from_agent: 'Manager', to_agent: 'Processor', message: 'process the data' });
    await call('agent_upsert_profile', { agent: 'claude', capabilities: { ui_work: 0.8, api_work: 0.7 } });
    await call('task_propose', {
      repo_root: repo,
      branch: 'main',
      summary: 'Extract a shared helper',
      rationale: 'Three call sites repeat the walk.',
      touches_files: ['src/walk.ts'],
      session_id: 'codex-1',
    });
    const a = await call('task_thread', { repo_root: repo, branch: 'feat/a', session_id: 'codex-1', agent: 'codex' });
    const b = await call('task_thread', { repo_root: repo, branch: 'feat/b', session_id: 'codex-1', agent: 'codex' });
    await call('task_link', { task_id: a.task_id, other_task_id: b.task_id, session_id: 'codex-1', note: 'API first' });
    await call('task_post', {
      task_id: a.task_id,
      session_id: 'codex-1',
      kind: 'decision',
      content: 'Use a quokka cache',
    });
  } finally {
    await lib.close();
  }
}

/**
 * Rescue over the real wire: a server process whose clock the test drives through
 * COLONY_CLOCK_FILE, so sessions go quiet by the server's own time. The scan writes
 * nothing; the run needs confirm, relays each stranded task to any agent, releases the
 * claims (and a claimed plan sub-task), and a retry with its idempotency key answers
 * the first result without rescuing twice.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import {
  type ColonyStore,
  countBatons,
  countClaims,
  countObservations,
  countSubtaskClaims,
  getSession,
} from '@swarm/storage';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestStore } from './_backend';
import { calls, serverClock } from './_calls';
import { type Server, startServer, tempDir } from './_harness';

const MINUTE = 60_000;
let server: Server;
let store: ColonyStore;
let clock: ReturnType<typeof serverClock>;
let taskId: number;
let REPO: string;

const snapshot = async () => ({
  observations: await countObservations(store),
  claims: await Promise.all((['active', 'handoff_pending', 'released'] as const).map((s) => countClaims(store, s))),
  batons: await countBatons(store),
  subtaskClaims: await countSubtaskClaims(store),
});
const { ok } = calls(() => server, snapshot);
const advance = (ms: number) => clock.advance(ms);

beforeAll(async () => {
  const dir = tempDir();
  const db = join(dir, 'colony.db');
  REPO = join(dir, 'repo');
  mkdirSync(REPO);
  const clockFile = join(dir, 'clock');
  clock = serverClock(clockFile, Date.UTC(2026, 4, 1));
  server = await startServer({ db, home: dir, clockFile });
  store = await openTestStore(db);
  const join_ = (session_id: string, agent: string) =>
    ok('task_thread', { repo_root: REPO, branch: 'main', session_id, agent });
  taskId = (await join_('claude-1', 'claude')).task_id;
  await join_('codex-1', 'codex');
}, 60_000);

afterAll(async () => {
  await store?.close();
  await server?.close();
});

describe('rescue over stdio', () => {
  it('scans read-only, refuses to run without confirm, rescues once with confirm', async () => {
    for (const file of ['src/a.ts', 'src/b.ts']) {
      await ok('task_claim_file', { task_id: taskId, session_id: 'claude-1', file_path: file });
    }
    advance(9 * MINUTE);
    expect((await ok('rescue_stranded_scan', {})).rescued).toEqual([]);
    advance(2 * MINUTE);
    await ok('task_post', { task_id: taskId, session_id: 'codex-1', kind: 'note', content: 'still here' });

    const before = await snapshot();
    const scan = await ok('rescue_stranded_scan', { stranded_after_minutes: 10 });
    expect(await snapshot()).toEqual(before);
    expect(scan).toMatchObject({
      dry_run: true,
      stranded: [{ session_id: 'claude-1', stale_age_minutes: 11, held_claim_count: 2 }],
      rescued: [
        {
          session_id: 'claude-1',
          task_id: taskId,
          released_claims: ['src/a.ts', 'src/b.ts'],
          blocking_urgency: 'local_claim',
          message_attention_state: 'no_pending_message',
        },
      ],
      remaining: 0,
    });

    for (const args of [{}, { confirm: false }]) {
      const refused = await server.call('rescue_stranded_run', args);
      expect(refused.isError).toBe(true);
      expect(refused.payload).toMatchObject({ code: 'RESCUE_CONFIRM_REQUIRED', tool: 'rescue_stranded_run' });
      expect(await snapshot()).toEqual(before);
    }

    const args = { stranded_after_minutes: 10, confirm: true, idempotency_key: 'rescue-once' };
    const run = await ok('rescue_stranded_run', args);
    expect(run.dry_run).toBe(false);
    const relayId = run.rescued[0].relay_observation_id as number;
    expect(relayId).toEqual(expect.any(Number));
    expect(await countBatons(store, 'pending')).toBe(1);
    expect(await countClaims(store, 'active')).toBe(0);
    expect((await getSession(store, 'claude-1'))?.lastHeartbeatAt).toBe(clock.now() - 11 * MINUTE);
    const retried = await ok('rescue_stranded_run', args);
    expect(retried).toEqual(run);
    expect(await countBatons(store)).toBe(1);
    expect((await ok('rescue_stranded_run', { confirm: true })).rescued).toEqual([]);

    expect(await ok('task_accept_relay', { relay_observation_id: relayId, session_id: 'codex-1' })).toEqual({
      status: 'accepted',
    });
  });

  it('gives a stranded claimed plan sub-task back to available', async () => {
    await ok('task_plan_publish', {
      repo_root: REPO,
      slug: 'rescue-plan',
      session_id: 'queen-1',
      agent: 'claude',
      title: 'Rescue plan',
      problem: 'p',
      acceptance_criteria: ['done'],
      subtasks: [
        { title: 'Core', description: 'c', file_scope: ['src/core.ts'] },
        { title: 'Verify core', description: 'v', file_scope: ['test/core.test.ts'], depends_on: [0] },
      ],
    });
    await ok('task_plan_claim_subtask', {
      plan_slug: 'rescue-plan',
      subtask_index: 0,
      session_id: 'codex-2',
      agent: 'codex',
    });
    advance(30 * MINUTE);
    const scan = await ok('rescue_stranded_scan', {});
    const entry = scan.rescued.find((r: { session_id: string }) => r.session_id === 'codex-2');
    expect(entry).toMatchObject({
      plan_slug: 'rescue-plan',
      subtask_index: 0,
      wave_index: 0,
      blocked_downstream_count: 1,
      blocking_urgency: 'blocks_downstream',
      releases_subtask: true,
      stale_age_minutes: 30,
    });
    expect(scan.rescued[0].session_id).toBe('codex-2');
    await ok('rescue_stranded_run', { confirm: true });
    const [plan] = await ok('task_plan_list', { repo_root: REPO });
    expect(plan.subtasks[0]).toMatchObject({ status: 'available', claimed_by_session_id: null });
    expect(plan.next_available.map((s: { subtask_index: number }) => s.subtask_index)).toEqual([0]);
  });

  it('refuses a threshold out of range without writing', async () => {
    const before = await snapshot();
    for (const stranded_after_minutes of [0, 10_081, 1.5]) {
      const refused = await server.call('rescue_stranded_run', { stranded_after_minutes, confirm: true });
      expect(refused.payload.code).toBe('INVALID_PARAMETERS');
    }
    expect(await snapshot()).toEqual(before);
  });
});

/**
 * The write path's round trips on PostgreSQL, where each statement costs one: appending
 * an observation moves its session's heartbeat and its task's `updated_at` in the same
 * statement (as SQLite's twin does in three), and the receipts rider's bookkeeping
 * (receipts, heartbeats, token counts) is one statement inside the caller's savepoint,
 * and each of them alone opens no savepoint of its own inside a write. The effects match SQLite's.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, afterEach, expect, it } from 'vitest';
import * as s from '../src/index';
import { type PgStore, pgQueries as q } from '../src/pg/index';
import { describePgStore } from './_pg-store';

const NOW = 5_000_000;
const dir = mkdtempSync(join(tmpdir(), 'pg-round-trips-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Every statement any pg client sends from here on, in order (restored after each test). */
const sent: string[] = [];
const query = pg.Client.prototype.query;
function recordStatements(): void {
  sent.length = 0;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const q0 = args[0] as string | { text?: string };
    sent.push((typeof q0 === 'string' ? q0 : (q0.text ?? '')).trim().split(/\s+/).slice(0, 2).join(' '));
    return (query as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof query;
}
afterEach(() => {
  pg.Client.prototype.query = query;
});

async function seed(pgStore: PgStore, lite: s.Store): Promise<number> {
  for (const id of ['alive', 'quiet']) {
    await lite.write(() => s.upsertSession(lite, { id, agent: 'codex' }, NOW));
    await q.upsertSession(pgStore, { id, agent: 'codex' }, NOW);
  }
  const task = { repoRoot: '/r', branch: 'main', createdBySession: 'alive' };
  const a = await lite.write(() => s.ensureTask(lite, task, NOW));
  const b = await pgStore.write(() => q.ensureTask(pgStore, task, NOW));
  expect(b.task.id).toBe(a.task.id);
  return a.task.id;
}

const note = (sessionId: string, taskId: number | null, ts: number) => ({
  sessionId,
  taskId,
  kind: 'note',
  content: `a note at ${ts}`,
  ts,
  tokenCount: 4,
});

describePgStore('the write path on PostgreSQL', (ctx) => {
  it('appends an observation and touches its session and task in one statement, as SQLite does in three', async () => {
    const lite = s.openStore({ path: join(dir, 'append.db') });
    const pgStore = await ctx.open();
    try {
      const taskId = await seed(pgStore, lite);
      const cases = [
        [note('alive', taskId, NOW + 10), { session: true, task: true }],
        [note('quiet', taskId, NOW + 20), { session: false, task: true }],
        [note('alive', null, NOW + 30), { session: true, task: true }],
        [note('alive', taskId, NOW + 40), { session: true, task: false }],
      ] as const;
      recordStatements();
      for (const [row, touches] of cases) {
        const want = await lite.write(() => s.insertObservationTouching(lite, row, touches));
        const got = await pgStore.write(() => q.insertObservationTouching(pgStore, row, touches));
        expect(got).toBe(want);
      }
      expect(sent).toEqual(Array(cases.length).fill(['BEGIN ISOLATION', 'WITH o', 'COMMIT']).flat());
      pg.Client.prototype.query = query;

      const heartbeats = async (store: s.ColonyStore) =>
        (await s.getSessions(store, ['alive', 'quiet'])).map((x) => [x.id, x.lastHeartbeatAt]).sort();
      expect(await heartbeats(pgStore)).toEqual(await heartbeats(lite));
      expect(await heartbeats(pgStore)).toEqual([
        ['alive', NOW + 40],
        ['quiet', NOW],
      ]);
      expect((await q.getTask(pgStore, taskId))?.updatedAt).toBe(NOW + 20);
      expect((await q.getTask(pgStore, taskId))?.updatedAt).toBe(s.getTask(lite, taskId)?.updatedAt);
      expect(await q.countObservations(pgStore)).toBe(s.countObservations(lite));
    } finally {
      lite.close();
    }
  });

  it("writes the rider's receipts, heartbeats and token counts inside the caller's savepoint, none of their own", async () => {
    const pgStore = await ctx.open();
    const lite = s.openStore({ path: join(dir, 'rider.db') });
    try {
      const taskId = await seed(pgStore, lite);
      const id = await q.insertObservationTouching(pgStore, note('alive', taskId, NOW + 1), {
        session: true,
        task: true,
      });
      const receipt = {
        ts: NOW + 99,
        operation: 'task_post',
        sessionId: 'quiet',
        durationMs: 1.5,
        inputTokens: 10,
        outputTokens: 3,
        ok: true,
        errorCode: null,
        errorMessage: null,
      };
      recordStatements();
      await pgStore.write(async () => {
        await pgStore.write(async () => {
          await q.insertReceipts(pgStore, [receipt]);
          await q.heartbeatSessions(pgStore, [{ id: 'quiet', ts: NOW + 99 }]);
          await q.refineTokenCounts(pgStore, [{ id, content: `a note at ${NOW + 1}`, tokenCount: 5 }]);
        });
      });
      expect(sent).toEqual([
        'BEGIN ISOLATION',
        'SAVEPOINT colony_sp_1',
        'insert into',
        'UPDATE sessions',
        'UPDATE observations',
        'RELEASE SAVEPOINT',
        'COMMIT',
      ]);
      // All three as the rider writes them: one statement.
      const later = { ...receipt, ts: NOW + 120, sessionId: 'alive' };
      sent.length = 0;
      await pgStore.write(async () => {
        await pgStore.write(() =>
          q.writeBookkeeping(pgStore, {
            receipts: [later],
            beats: [{ id: 'alive', ts: NOW + 120 }],
            refinements: [{ id, content: `a note at ${NOW + 1}`, tokenCount: 6 }],
          }),
        );
      });
      expect(sent).toEqual(['BEGIN ISOLATION', 'SAVEPOINT colony_sp_1', 'WITH m', 'RELEASE SAVEPOINT', 'COMMIT']);
      await s.writeBookkeeping(lite, {
        receipts: [receipt, later],
        beats: [
          { id: 'quiet', ts: NOW + 99 },
          { id: 'alive', ts: NOW + 120 },
        ],
        refinements: [],
      });
      expect(await q.listReceipts(pgStore, 0)).toEqual(s.listReceipts(lite, 0));
      expect((await q.getSession(pgStore, 'alive'))?.lastHeartbeatAt).toBe(NOW + 120);
      expect((await q.getSession(pgStore, 'alive'))?.lastHeartbeatAt).toBe(
        s.getSession(lite, 'alive')?.lastHeartbeatAt,
      );
      pg.Client.prototype.query = query;

      expect(await q.listReceipts(pgStore, 0)).toEqual([receipt, later]);
      expect((await q.getSession(pgStore, 'quiet'))?.lastHeartbeatAt).toBe(NOW + 99);
      expect((await q.getObservation(pgStore, id))?.tokenCount).toBe(6);

      // Alone (outside any write), each is a transaction of its own.
      recordStatements();
      await q.refineTokenCounts(pgStore, [{ id, content: 'not the content any more', tokenCount: 8 }]);
      expect(sent).toEqual(['BEGIN ISOLATION', 'UPDATE observations', 'COMMIT']);
      pg.Client.prototype.query = query;
      expect((await q.getObservation(pgStore, id))?.tokenCount).toBe(6);
    } finally {
      lite.close();
    }
  });
});

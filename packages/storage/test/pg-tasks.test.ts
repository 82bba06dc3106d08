/**
 * The tasks group's queries on PostgreSQL (`pgQueries`) against their SQLite twins:
 * the same calls on a fresh SQLite store and a fresh PgStore give the same results
 * (sessions, heartbeats, profiles, idempotency keys, links), plus history and warning
 * reads on seeded rows, and racing profile upserts that keep both writers' weights.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import * as s from '../src/index';
import { type PgStore, pgQueries as q } from '../src/pg/index';
import { describePgStore } from './_pg-store';

const NOW = 1_000_000;
const dir = mkdtempSync(join(tmpdir(), 'pg-tasks-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describePgStore('tasks group on PostgreSQL', (ctx) => {
  it('answers like SQLite for sessions, heartbeats, profiles, idempotency and links', async () => {
    const lite = s.openStore({ path: join(dir, 'a.db') });
    const pg = await ctx.open();
    const both = async <T>(a: () => T | Promise<T>, b: () => Promise<T>): Promise<T> => {
      const want = await a();
      expect(await b()).toEqual(want);
      return want;
    };
    const w = <T>(fn: () => Promise<T>) => pg.write(fn);
    for (const [id, at] of [
      ['s1', NOW],
      ['s2', NOW + 1],
      ['s3', NOW + 1],
    ] as const) {
      await both(
        () => lite.write(() => s.upsertSession(lite, { id, agent: 'a', metadata: { k: 1 } }, at)),
        () => w(() => q.upsertSession(pg, { id, agent: 'a', metadata: { k: 1 } }, at)),
      );
    }
    const again = { id: 's1', ide: 'code', metadata: { j: 2 } };
    const merged = await both(
      () => lite.write(() => s.upsertSession(lite, again, NOW - 5)),
      () => q.upsertSession(pg, again, NOW - 5),
    );
    expect(merged).toMatchObject({ ide: 'code', agent: 'a', lastHeartbeatAt: NOW, metadata: { k: 1, j: 2 } });
    await both(
      () => s.listSessions(lite, 2),
      () => q.listSessions(pg, 2),
    );
    await both(
      () => s.getSessions(lite, ['s3', 'nope', 's1']).sort((x, y) => x.id.localeCompare(y.id)),
      async () => (await q.getSessions(pg, ['s3', 'nope', 's1'])).sort((x, y) => x.id.localeCompare(y.id)),
    );
    expect(await q.getSessions(pg, [])).toEqual([]);
    await both(
      () => s.getSession(lite, 'nope'),
      () => q.getSession(pg, 'nope'),
    );
    await both(
      () => s.countSessions(lite),
      () => q.countSessions(pg),
    );
    await both(
      () => s.touchSession(lite, 'nope', NOW),
      () => q.touchSession(pg, 'nope', NOW),
    );
    await both(
      () => s.endSession(lite, 's2', NOW + 9),
      () => q.endSession(pg, 's2', NOW + 9),
    );
    const beats = [
      { id: 's1', ts: NOW + 50 },
      { id: 's1', ts: NOW + 40 },
      { id: 's3', ts: 1 },
      { id: 'ghost', ts: 9 },
    ];
    await s.heartbeatSessions(lite, beats);
    await q.heartbeatSessions(pg, beats);
    await q.prepareTouchSession(pg);
    await both(
      () =>
        s
          .getSessions(lite, ['s1', 's3'])
          .map((x) => x.lastHeartbeatAt)
          .sort(),
      async () => (await q.getSessions(pg, ['s1', 's3'])).map((x) => x.lastHeartbeatAt).sort(),
    );
    expect((await q.getSession(pg, 's1'))?.lastHeartbeatAt).toBe(NOW + 50);

    await both(
      () => lite.write(() => s.upsertProfile(lite, 'b', { x: 1 }, NOW)),
      () => q.upsertProfile(pg, 'b', { x: 1 }, NOW),
    );
    await both(
      () => lite.write(() => s.upsertProfile(lite, 'b', { y: 2 }, NOW + 1)),
      () => q.upsertProfile(pg, 'b', { y: 2 }, NOW + 1),
    );
    await both(
      () => lite.write(() => s.upsertProfile(lite, 'a', { x: 3 }, NOW)),
      () => q.upsertProfile(pg, 'a', { x: 3 }, NOW),
    );
    await both(
      () => s.listProfiles(lite),
      () => q.listProfiles(pg),
    );
    await both(
      () => s.getProfile(lite, 'zz'),
      () => q.getProfile(pg, 'zz'),
    );
    await both(
      () => s.getProfiles(lite, ['b']),
      () => q.getProfiles(pg, ['b']),
    );
    expect(await q.getProfiles(pg, [])).toEqual([]);

    await both(
      () => s.findIdempotentResult(lite, 't', 'k'),
      () => q.findIdempotentResult(pg, 't', 'k'),
    );
    await lite.write(() => s.saveIdempotentResult(lite, 't', 'k', 'h', { pending: true }, NOW));
    await w(() => q.saveIdempotentResult(pg, 't', 'k', 'h', { pending: true }, NOW));
    await expect(w(() => q.saveIdempotentResult(pg, 't', 'k', 'h', {}, NOW))).rejects.toThrow();
    await lite.write(() => s.replaceIdempotentResult(lite, 't', 'k', { ok: 1 }, NOW + 1));
    await w(() => q.replaceIdempotentResult(pg, 't', 'k', { ok: 1 }, NOW + 1));
    await both(
      () => s.findIdempotentResult(lite, 't', 'k'),
      () => q.findIdempotentResult(pg, 't', 'k'),
    );
    await lite.write(() => s.deleteIdempotentResult(lite, 't', 'k'));
    await w(() => q.deleteIdempotentResult(pg, 't', 'k'));
    await both(
      () => s.findIdempotentResult(lite, 't', 'k'),
      () => q.findIdempotentResult(pg, 't', 'k'),
    );

    for (const [i, branch] of ['m1', 'm2', 'm3', 'm1'].entries()) {
      const input = { repoRoot: '/r', branch, title: null };
      await both(
        () => lite.write(() => s.ensureTask(lite, input, NOW + i)),
        () => w(() => q.ensureTask(pg, input, NOW + i)),
      );
    }
    await both(
      () => lite.write(() => s.touchTask(lite, 2, NOW + 8)),
      () => q.touchTask(pg, 2, NOW + 8),
    );
    await both(
      () => s.listTasks(lite, { repoRoot: '/r', limit: 2 }),
      () => q.listTasks(pg, { repoRoot: '/r', limit: 2 }),
    );
    await both(
      () => s.listTasks(lite, { branch: 'zz', limit: 2 }),
      () => q.listTasks(pg, { branch: 'zz', limit: 2 }),
    );
    await both(
      () => s.getTask(lite, 3),
      () => q.getTask(pg, 3),
    );
    await both(
      () => s.findTask(lite, '/r', 'nope'),
      () => q.findTask(pg, '/r', 'nope'),
    );
    await both(
      () => s.countTasks(lite),
      () => q.countTasks(pg),
    );
    await both(
      () => s.countTasksMatching(lite, { branch: 'm2' }),
      () => q.countTasksMatching(pg, { branch: 'm2' }),
    );
    for (const [t, sid, agent, at] of [
      [1, 's1', 'a', NOW],
      [1, 's3', 'b', NOW + 1],
      [2, 's1', 'a', NOW],
      [1, 's1', 'c', NOW + 5],
    ] as const) {
      await both(
        () => lite.write(() => s.joinTask(lite, t, sid, agent, at)),
        () => w(() => q.joinTask(pg, t, sid, agent, at)),
      );
    }
    await both(
      () => s.getParticipant(lite, 1, 's1'),
      () => q.getParticipant(pg, 1, 's1'),
    );
    await both(
      () => s.getParticipant(lite, 9, 's1'),
      () => q.getParticipant(pg, 9, 's1'),
    );
    await both(
      () => s.listParticipants(lite, [1]),
      () => q.listParticipants(pg, [1]),
    );
    expect(await q.listParticipants(pg, [])).toEqual([]);
    await both(
      () => s.activeTasksOfSession(lite, 's1'),
      () => q.activeTasksOfSession(pg, 's1'),
    );
    const link = (a: number, b: number, at: number) => ({ taskId: a, otherTaskId: b, createdBy: 's1', note: null, at });
    for (const l of [link(2, 1, NOW), link(1, 3, NOW), link(1, 2, NOW + 3)]) {
      await both(
        () => lite.write(() => s.insertTaskLink(lite, l, l.at)),
        () => w(() => q.insertTaskLink(pg, l, l.at)),
      );
    }
    const ends = (xs: Array<{ link: s.TaskLink; other: s.Task }>) => xs.map((x) => [x.link, x.other.id]);
    await both(
      () => ends(s.listTaskLinks(lite, 1)),
      async () => ends(await q.listTaskLinks(pg, 1)),
    );
    await both(
      () => s.getTaskLink(lite, 3, 1),
      () => q.getTaskLink(pg, 3, 1),
    );
    await both(
      () => s.deleteTaskLink(lite, 3, 1),
      () => w(() => q.deleteTaskLink(pg, 3, 1)),
    );
    await both(
      () => s.deleteTaskLink(lite, 3, 1),
      () => w(() => q.deleteTaskLink(pg, 3, 1)),
    );
    await both(
      () => s.countTaskLinks(lite),
      () => q.countTaskLinks(pg),
    );
    lite.close();
  });

  it('reads task histories, file touches and warnings; racing upserts keep every weight', async () => {
    const pg = await ctx.open();
    const rows = ctx.rows();
    await rows.insert('sessions', { id: 'h1' });
    const task = Number((await rows.insert('tasks', { repo_root: '/h', branch: 'b', status: 'open' })).id);
    const obs = (kind: string, ts: number, metadata: unknown = null) =>
      rows.insert('observations', {
        session_id: 'h1',
        task_id: task,
        kind,
        ts,
        content: `${kind}-${ts}`,
        metadata: metadata && JSON.stringify(metadata),
      });
    await obs('blocker', 10);
    await obs('failure', 30);
    await obs('edit', 20, { file_path: 'b.ts' });
    await obs('edit', 5, { file_path: 'b.ts' });
    const [history] = await q.taskHistories(pg, [task, 999_999]);
    expect(history).toMatchObject({
      id: task,
      observationCount: 4,
      handoffCount: 0,
      subtaskCount: 0,
      completedAt: null,
    });
    expect(await q.taskHistories(pg, [])).toEqual([]);
    expect(await q.taskFileTouches(pg, [task])).toEqual([{ taskId: task, filePath: 'b.ts', firstTs: 5 }]);
    const warnings = await q.taskWarnings(pg, [task], ['blocker', 'failure'], NOW, 5);
    expect(warnings.map((x) => [x.kind, x.ts, x.text])).toEqual([
      ['failure', 30, 'failure-30'],
      ['blocker', 10, 'blocker-10'],
    ]);
    expect(await q.taskWarnings(pg, [task], ['blocker', 'failure'], NOW, 1)).toHaveLength(1);
    expect(await q.taskWarnings(pg, [], ['blocker'], NOW, 5)).toEqual([]);

    await rows.insert('sessions', { id: 'h2' });
    await q.joinTask(pg, task, 'h2', 'codex', NOW);
    const baton = async (expiresAt: number) => {
      const id = Number((await obs('handoff', expiresAt)).id);
      const base = { taskId: task, kind: 'handoff' as const, fromSessionId: 'h1', fromAgent: 'claude', toAgent: 'any' };
      return q.insertBaton(pg, { ...base, id, summary: `s${id}`, payload: { n: id }, createdAt: NOW, expiresAt });
    };
    const [old, live] = [await baton(NOW - 1), await baton(NOW + 100)];
    expect(live.payload).toEqual({ n: live.id });
    expect(await q.getBaton(pg, live.id)).toEqual(live);
    expect((await q.overduePendingBatons(pg, task, NOW)).map((x) => x.id)).toEqual([old.id]);
    expect((await q.openBatonsForSession(pg, 'h2', NOW, 5)).map((x) => [x.id, x.participantAgent])).toEqual([
      [live.id, 'codex'],
    ]);
    expect(await q.openBatonsForSession(pg, 'h1', NOW, 5)).toEqual([]);
    expect(await q.pendingBatonOfFile(pg, task, 'x.ts')).toBeUndefined();
    expect(await q.retargetBaton(pg, live.id, 'codex', 'h2')).toBe(true);
    const resolve = (st: PgStore) => q.resolveBaton(st, old.id, { status: 'expired', now: NOW, bySessionId: 'h1' });
    const msg = async (to: string, expiresAt: number | null, ts: number) => {
      const id = Number((await obs('message', ts)).id);
      const base = { taskId: task, fromSessionId: 'h1', fromAgent: 'claude', toSessionId: null, replyTo: null };
      await q.insertMessage(pg, {
        ...base,
        id,
        toAgent: to,
        urgency: 'fyi',
        status: 'unread',
        createdAt: ts,
        expiresAt,
        statusChangedAt: ts,
      });
      return id;
    };
    const [m1, m2, m3] = [await msg('any', null, 40), await msg('codex', NOW - 1, 41), await msg('other', null, 42)];
    const inbox = (over = {}) =>
      q.listInboxMessages(pg, { sessionId: 'h2', agent: 'codex', now: NOW, unreadOnly: false, limit: 9, ...over });
    expect((await inbox()).map((m) => [m.id, m.head])).toEqual([
      [m2, 'message-41'],
      [m1, 'message-40'],
    ]);
    expect(
      (await inbox({ unreadOnly: true, taskIds: [task], urgencies: ['fyi'], sinceTs: 1 })).map((m) => m.id),
    ).toEqual([m1]);
    expect(await inbox({ taskIds: [] })).toEqual([]);
    expect(await q.markMessageRead(pg, m2, NOW)).toBe(false);
    expect(await q.expireMessage(pg, m2, NOW)).toBe(true);
    expect(await q.markMessageRead(pg, m1, NOW)).toBe(true);
    expect(await q.markMessageReplied(pg, m1, NOW)).toBe(true);
    expect(await q.retractMessage(pg, m1, NOW)).toBe(false);
    expect(await q.retractMessage(pg, m3, NOW)).toBe(true);
    expect((await q.getMessage(pg, m3))?.status).toBe('retracted');
    expect(await q.countMessages(pg)).toBe(3);
    const claim = (st: PgStore, sid: string) => q.claimMessage(st, m1, sid, 'x', NOW);
    const [a, b] = [await ctx.open(), await ctx.open()];
    expect((await Promise.all([resolve(a), resolve(b), resolve(pg)])).filter(Boolean)).toHaveLength(1);
    expect((await Promise.all([claim(a, 'h1'), claim(b, 'h2')])).filter(Boolean)).toHaveLength(1);
    expect(await q.retargetBaton(pg, old.id, 'x', null)).toBe(false);
    expect([await q.countBatons(pg), await q.countBatons(pg, 'expired')]).toEqual([2, 1]);
    const [warning] = await q.taskWarnings(pg, [task], [], NOW, 5);
    expect(warning).toMatchObject({ kind: 'expired-handoff', observationId: old.id, text: `s${old.id}` });
    await Promise.all([q.upsertProfile(a, 'race', { x: 1 }, NOW), q.upsertProfile(b, 'race', { y: 2 }, NOW)]);
    expect((await q.getProfile(pg, 'race'))?.capabilities).toEqual({ x: 1, y: 2 });
    const input = { repoRoot: '/race', branch: 'main' };
    const opened = await Promise.all([a, b, pg].map((st) => st.write(() => q.ensureTask(st, input, NOW))));
    expect(opened.filter((o) => o.created)).toHaveLength(1);
    expect(new Set(opened.map((o) => o.task.id)).size).toBe(1);
  });
});

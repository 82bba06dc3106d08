/**
 * The mesh, runs and checkpoint twins on PostgreSQL (`pgQueries`), each call run on a
 * fresh SQLite store and on a PgStore and asserted equal (`_pg-parity.ts`): the context
 * mesh (expiry, access lists, GLOB, byte order), messages and inboxes, swarm, iteration
 * and workflow runs; guarded transitions with one winner among concurrent stores; and
 * the checkpoint twins that do nothing.
 */
import { expect, it } from 'vitest';
import { insertObservation, upsertSession } from '../src/index';
import * as sqliteMeshContext from '../src/mesh-context';
import * as sqliteMeshInbox from '../src/mesh-inbox';
import * as sqliteMeshMessages from '../src/mesh-messages';
import { pgQueries as q } from '../src/pg/index';
import { pgClient } from '../src/pg/store/_handle';
import { type Parity, parity } from './_pg-parity';
import { runsSuite } from './_pg-runs-suite';
import { describePgStore } from './_pg-store';

const MESH = { ...sqliteMeshContext, ...sqliteMeshInbox, ...sqliteMeshMessages };

/** A session and `n` observations with the same ids on both stores. */
async function observations(p: Parity, n: number): Promise<void> {
  await p.sqlite.write(() => upsertSession(p.sqlite, { id: 's1' }, 1));
  await pgClient(p.pg).query(`INSERT INTO sessions (id, started_at, last_heartbeat_at) VALUES ('s1', 1, 1)`);
  for (let i = 1; i <= n; i++) {
    const o = { sessionId: 's1', kind: 'message', content: `body ${i}`, ts: i, tokenCount: 1 };
    expect(await p.call('insertObservation', o)).toBe(i);
  }
}

const entry = (key: string, over: Partial<sqliteMeshContext.MeshEntryWrite> = {}) => ({
  key,
  value: JSON.stringify({ key }),
  owner: 'alice',
  subscribers: null,
  version: 1,
  now: 10,
  expiresAt: null,
  ...over,
});

describePgStore('mesh, runs and checkpoint twins on PostgreSQL', (ctx) => {
  it('keeps the context mesh as SQLite does: expiry, access, GLOB and byte order', async () => {
    const p = await parity(ctx, { ...MESH, insertObservation });
    for (const key of ['b', 'a', 'B', 'a/x', 'a?', 'a[1]', 'ä', 'z\\y']) await p.call('putMeshEntry', entry(key));
    await p.call('putMeshEntry', entry('old', { expiresAt: 20 }));
    await p.call('putMeshEntry', entry('private', { owner: 'bob', subscribers: ['carol'] }));
    expect(await p.call('getMeshEntry', 'old', 19)).toMatchObject({ key: 'old', expiresAt: 20 });
    expect(await p.call('getMeshEntry', 'old', 20)).toBeUndefined();
    expect(await p.call('getMeshEntry', 'nope', 0)).toBeUndefined();
    expect(await p.call('getMeshEntry', 'private', 0)).toMatchObject({ subscribers: ['carol'], owner: 'bob' });
    const keys = (agent: string, glob?: string, limit = 100, now = 15) =>
      p.call('listMeshKeys', { agent, now, limit, ...(glob === undefined ? {} : { glob }) });
    expect(await keys('alice')).toEqual(['B', 'a', 'a/x', 'a?', 'a[1]', 'b', 'old', 'z\\y', 'ä']);
    expect(await keys('carol', undefined, 3, 25)).toEqual(['B', 'a', 'a/x']);
    expect(await keys('bob', 'p*')).toEqual(['private']);
    expect(await keys('alice', 'p*')).toEqual([]);
    for (const glob of [
      'a*',
      'a?',
      '[ab]',
      '[^ab]*',
      '?',
      'a[[]1]',
      'a[?]',
      'A*',
      'a.',
      'z\\y',
      '[a-b]*',
      'a[',
      '[]]',
    ]) {
      await keys('carol', glob);
    }
    expect(await keys('carol', 'a[?]')).toEqual(['a?']);
    // version 1 makes a new entry (created now); a later version keeps the creation time.
    await p.call('putMeshEntry', entry('a', { version: 2, now: 30, subscribers: ['x'] }));
    expect(await p.call('getMeshEntry', 'a', 0)).toMatchObject({ createdAt: 10, updatedAt: 30, version: 2 });
    await p.call('putMeshEntry', entry('a', { now: 40 }));
    expect(await p.call('getMeshEntry', 'a', 0)).toMatchObject({ createdAt: 40, subscribers: null });
    expect(await p.call('countMeshEntries')).toBe(10);
    expect(await p.call('purgeExpiredMeshEntries', 20)).toBe(1);
    expect(await p.call('purgeExpiredMeshEntries', 20)).toBe(0);
    expect(await p.call('deleteMeshEntry', 'b')).toBe(true);
    expect(await p.call('deleteMeshEntry', 'b')).toBe(false);
    expect(await p.call('countMeshEntries')).toBe(8);
  });

  it('delivers messages to each recipient, filters inboxes and marks a copy read once', async () => {
    const p = await parity(ctx, { ...MESH, insertObservation });
    await observations(p, 4);
    const msg = (id: number, over: object = {}) => ({
      id,
      fromAgent: 'alice',
      messageType: 'note',
      priority: 'normal',
      threadId: null,
      requiresConfirmation: false,
      confirmsId: null,
      createdAt: 100 + id,
      ...over,
    });
    await p.call('insertMeshMessage', msg(1, { threadId: 't1' }), ['bob', 'carol']);
    await p.call('insertMeshMessage', msg(2, { priority: 'high', requiresConfirmation: true }), ['bob']);
    await p.call('insertMeshMessage', msg(3, { fromAgent: 'bob', threadId: 't1', confirmsId: 1 }), ['alice']);
    await p.call('insertMeshMessage', msg(4), []);
    await p.fails('insertMeshMessage', msg(5), ['bob']);
    expect(await p.call('countMeshMessages')).toEqual({ messages: 4, recipients: 4 });
    const inbox = (filter: object) =>
      p.call('listMeshInbox', { agent: 'bob', unreadOnly: false, limit: 10, ...filter });
    expect(await inbox({})).toMatchObject([
      { id: 1, body: 'body 1', readAt: null },
      { id: 2, requiresConfirmation: true },
    ]);
    expect(await inbox({ limit: 1 })).toHaveLength(1);
    expect(await inbox({ priority: 'high' })).toMatchObject([{ id: 2 }]);
    expect(await inbox({ threadId: 't1', messageType: 'note', fromAgent: 'alice' })).toMatchObject([{ id: 1 }]);
    expect(await inbox({ fromAgent: 'nobody' })).toEqual([]);
    expect(await p.call('listMeshInbox', { agent: 'alice', unreadOnly: true, limit: 5 })).toMatchObject([
      { id: 3, confirmsId: 1, threadId: 't1' },
    ]);
    expect(await p.call('markMeshMessageRead', 1, 'bob', 500)).toBe(true);
    expect(await p.call('markMeshMessageRead', 1, 'bob', 600)).toBe(false);
    expect(await p.call('markMeshMessageRead', 3, 'bob', 600)).toBe(false);
    expect(await inbox({ unreadOnly: true })).toMatchObject([{ id: 2 }]);
    expect(await inbox({})).toMatchObject([{ id: 1, readAt: 500 }, { id: 2 }]);
    expect(await p.call('countMeshUnread', 'bob')).toBe(1);
    expect(await p.call('countMeshUnread', 'carol')).toBe(1);
    expect(await p.call('countMeshUnread', 'dave')).toBe(0);
    expect(await p.call('meshThreadMembership', 't1', 'carol')).toEqual({ exists: true, member: true });
    expect(await p.call('meshThreadMembership', 't1', 'dave')).toEqual({ exists: true, member: false });
    expect(await p.call('meshThreadMembership', 't9', 'alice')).toEqual({ exists: false, member: false });
  });

  it('marks a copy read for exactly one of several racing stores', async () => {
    const p = await parity(ctx, { ...MESH, insertObservation });
    await observations(p, 1);
    await p.pg.write(() => q.insertMeshMessage(p.pg, { ...baseMessage, id: 1 }, ['bob']));
    const stores = await Promise.all([1, 2, 3, 4].map(() => ctx.open({ url: p.url })));
    const marked = await Promise.all(stores.map((s, i) => s.write(() => q.markMeshMessageRead(s, 1, 'bob', i))));
    expect(marked.filter(Boolean)).toHaveLength(1);
    expect(await q.countMeshUnread(p.pg, 'bob')).toBe(0);
  });

  runsSuite(ctx);

  it('answers checkpoints with nothing done, and refuses what SQLite refuses', async () => {
    const store = await ctx.open();
    expect(await q.checkpoint(store)).toEqual({ busy: 0, log: -1, checkpointed: -1 });
    expect(await q.checkpoint(store, 'TRUNCATE')).toEqual({ busy: 0, log: -1, checkpointed: -1 });
    await expect(q.checkpoint(store, 'NOPE' as 'FULL')).rejects.toThrow('unknown checkpoint mode: NOPE');
    await q.setAutoCheckpoint(store, 5000);
    await expect(q.setAutoCheckpoint(store, -1)).rejects.toThrow('wal_autocheckpoint needs pages >= 0, got -1');
    expect(await q.autoCheckpointPages(store)).toBe(0);
  });
});

const baseMessage = {
  fromAgent: 'alice',
  messageType: 'note',
  priority: 'normal',
  threadId: null,
  requiresConfirmation: false,
  confirmsId: null,
  createdAt: 1,
};

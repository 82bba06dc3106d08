/**
 * Messages and task links over the real wire: a colony-mcp process driven by the MCP
 * SDK client over stdio, its clock set through COLONY_CLOCK_FILE for every TTL path.
 * Each contract error code is answered as documented, and a refusal writes nothing
 * (counted in the store the server writes: SQLite file or PostgreSQL database).
 */
import { join } from 'node:path';
import { type ColonyStore, countMessages, countObservations, countTaskLinks, getMessage } from '@swarm/storage';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestStore } from './_backend';
import { type Server, setClock, startServer, tempDir } from './_harness';

const REPO = '/abs/wire-repo';
const T0 = Date.UTC(2026, 2, 1);
const MINUTE = 60_000;

let server: Server;
let store: ColonyStore;
let clockFile: string;
let main: number;
let other: number;

beforeAll(async () => {
  const dir = tempDir();
  clockFile = join(dir, 'clock');
  setClock(clockFile, T0);
  const db = join(dir, 'colony.db');
  server = await startServer({ db, home: dir, clockFile });
  const join_ = async (branch: string, session_id: string, agent: string) =>
    (await server.call('task_thread', { repo_root: REPO, branch, session_id, agent })).payload.task_id as number;
  main = await join_('main', 'claude-1', 'claude');
  await join_('main', 'codex-1', 'codex');
  await join_('main', 'codex-2', 'codex');
  other = await join_('other', 'cursor-9', 'cursor');
  store = await openTestStore(db);
}, 60_000);

afterAll(async () => {
  await store?.close();
  await server?.close();
});

const written = async () => ({
  observations: await countObservations(store),
  messages: await countMessages(store),
  links: await countTaskLinks(store),
});

async function ok(tool: string, args: Record<string, unknown>) {
  const r = await server.call(tool, args);
  expect(r.isError, `${tool}: ${r.text}`).toBe(false);
  return r.payload;
}

/** The call must answer `code` in the contract's error shape and write nothing. */
async function refuses(tool: string, args: Record<string, unknown>, code: string): Promise<void> {
  const before = await written();
  const r = await server.call(tool, args);
  expect(r.isError, `${tool} ${JSON.stringify(args)}`).toBe(true);
  expect(r.payload).toMatchObject({ code, tool, error: expect.any(String), timestamp: expect.any(String) });
  expect(await written()).toEqual(before);
}

const send = async (args: Record<string, unknown> = {}): Promise<number> =>
  (
    await ok('task_message', {
      task_id: main,
      session_id: 'claude-1',
      agent: 'claude',
      content: 'please re-run the typecheck on your branch',
      ...args,
    })
  ).message_observation_id;

describe('task_message over stdio', () => {
  it('sends, lists compactly, and refuses bad input without writing', async () => {
    const id = await send({ to_agent: 'codex', urgency: 'needs_reply' });
    const [entry] = await ok('task_messages', { session_id: 'codex-1', agent: 'codex', task_ids: [main] });
    expect(entry).toMatchObject({
      id,
      task_id: main,
      ts: T0,
      urgency: 'needs_reply',
      status: 'unread',
      preview: 'please re-run the typecheck on your branch',
      reply_tool: 'task_message',
      mark_read_tool: 'task_message_mark_read',
      suggested_reply_args: { task_id: main, session_id: 'codex-1', reply_to: id, to_session_id: 'claude-1' },
    });
    const note = (await ok('task_post', { task_id: main, session_id: 'claude-1', kind: 'note', content: 'n' })).id;
    const foreign = (
      await ok('task_message', { task_id: other, session_id: 'cursor-9', agent: 'cursor', content: 'elsewhere' })
    ).message_observation_id;
    const base = { task_id: main, session_id: 'claude-1', agent: 'claude', content: 'hi' };
    await refuses('task_message', { ...base, task_id: 9999 }, 'TASK_NOT_FOUND');
    await refuses('task_message', { ...base, session_id: 'ghost' }, 'NOT_PARTICIPANT');
    await refuses('task_message', { ...base, session_id: 'cursor-9' }, 'NOT_PARTICIPANT');
    await refuses('task_message', { ...base, content: 'x'.repeat(65_537) }, 'INVALID_PARAMETERS');
    await refuses('task_message', { ...base, reply_to: note }, 'NOT_MESSAGE');
    await refuses('task_message', { ...base, reply_to: foreign }, 'TASK_MISMATCH');
    await refuses('task_message', { ...base, task_id: other, session_id: 'cursor-9', reply_to: id }, 'TASK_MISMATCH');
    await refuses('task_message', { ...base, reply_to: 999_999 }, 'NOT_MESSAGE');
  });

  it('refuses a reply to a note of another task with OBSERVATION_NOT_ON_TASK, and to a retracted message', async () => {
    const note = (await ok('task_post', { task_id: other, session_id: 'cursor-9', kind: 'note', content: 'n' })).id;
    const base = { task_id: main, session_id: 'codex-1', agent: 'codex', content: 'reply' };
    await refuses('task_message', { ...base, reply_to: note }, 'OBSERVATION_NOT_ON_TASK');
    const gone = await send();
    await ok('task_message_retract', { message_observation_id: gone, session_id: 'claude-1', reason: 'never mind' });
    await refuses('task_message', { ...base, reply_to: gone }, 'ALREADY_RETRACTED');
  });

  it('writes once for a retried idempotency_key', async () => {
    const args = { task_id: main, session_id: 'claude-1', agent: 'claude', content: 'once', idempotency_key: 'w-1' };
    const first = await ok('task_message', args);
    const before = await written();
    expect(await ok('task_message', args)).toEqual(first);
    expect(await written()).toEqual(before);
  });

  it('answers a parent and claims a broadcast on reply', async () => {
    const broadcast = await send({ content: 'who takes the flaky test?' });
    await send({ session_id: 'codex-2', agent: 'codex', reply_to: broadcast, content: 'me' });
    expect(await getMessage(store, broadcast)).toMatchObject({ status: 'replied', claimedBySessionId: 'codex-2' });
    const seen = await ok('task_messages', { session_id: 'codex-1', agent: 'codex', unread_only: false });
    expect(seen.map((e: { id: number }) => e.id)).not.toContain(broadcast);
  });
});

describe('message lifecycle over stdio, with the server clock driven', () => {
  it('marks read once with a receipt, and answers every mark_read code', async () => {
    setClock(clockFile, T0 + MINUTE);
    const direct = await send({ to_session_id: 'codex-1' });
    const forCodex = await send({ session_id: 'codex-1', agent: 'codex', to_agent: 'codex' });
    const before = await written();
    expect(await ok('task_message_mark_read', { message_observation_id: direct, session_id: 'codex-1' })).toEqual({
      status: 'read',
    });
    expect((await written()).observations).toBe(before.observations + 1);
    const timeline = await ok('task_timeline', { task_id: main, limit: 1 });
    expect(timeline[0]).toMatchObject({ kind: 'message_read', session_id: 'codex-1', reply_to: direct });
    await refuses(
      'task_message_mark_read',
      { message_observation_id: direct, session_id: 'codex-1', idempotency_key: 'r-1', task_id: other },
      'TASK_MISMATCH',
    );
    const note = (await ok('task_post', { task_id: other, session_id: 'cursor-9', kind: 'note', content: 'n' })).id;
    const mark = (message_observation_id: number, session_id: string, extra = {}) => ({
      message_observation_id,
      session_id,
      ...extra,
    });
    await refuses('task_message_mark_read', mark(note, 'codex-1'), 'NOT_MESSAGE');
    await refuses('task_message_mark_read', mark(note, 'codex-1', { task_id: main }), 'OBSERVATION_NOT_ON_TASK');
    await refuses('task_message_mark_read', mark(direct, 'cursor-9'), 'NOT_PARTICIPANT');
    await refuses('task_message_mark_read', mark(direct, 'codex-2'), 'NOT_TARGET_SESSION');
    await refuses('task_message_mark_read', mark(forCodex, 'claude-1'), 'NOT_TARGET_AGENT');
    const retracted = await send({ to_agent: 'codex' });
    await ok('task_message_retract', { message_observation_id: retracted, session_id: 'claude-1' });
    await refuses('task_message_mark_read', mark(retracted, 'codex-1'), 'ALREADY_RETRACTED');
  });

  it('hides a message past its TTL and answers MESSAGE_EXPIRED from then on', async () => {
    const start = T0 + 10 * MINUTE;
    setClock(clockFile, start);
    const id = await send({ to_agent: 'codex', urgency: 'blocking', expires_in_minutes: 5 });
    const inbox = async (unread_only: boolean) =>
      (await ok('task_messages', { session_id: 'codex-1', agent: 'codex', unread_only })).filter(
        (e: { id: number }) => e.id === id,
      );
    expect(await inbox(true)).toHaveLength(1);
    setClock(clockFile, start + 5 * MINUTE);
    expect(await inbox(true)).toEqual([]);
    expect((await inbox(false))[0]).toMatchObject({ status: 'expired', expires_at: start + 5 * MINUTE });
    const before = await written();
    const first = await server.call('task_message_mark_read', { message_observation_id: id, session_id: 'codex-1' });
    expect(first.payload.code).toBe('MESSAGE_EXPIRED');
    expect((await getMessage(store, id))?.status).toBe('expired');
    setClock(clockFile, start + 60 * MINUTE);
    const later = await server.call('task_message_mark_read', { message_observation_id: id, session_id: 'codex-2' });
    expect(later.payload.code).toBe('MESSAGE_EXPIRED');
    expect(await written()).toEqual(before);
  });

  it('retracts, and answers every retract code', async () => {
    setClock(clockFile, T0 + 2 * 60 * MINUTE);
    const id = await send({ to_agent: 'codex' });
    const answered = await send({ to_agent: 'codex' });
    await send({ session_id: 'codex-1', agent: 'codex', reply_to: answered });
    const ref = (message_observation_id: number, session_id = 'claude-1', extra = {}) => ({
      message_observation_id,
      session_id,
      ...extra,
    });
    await refuses('task_message_retract', ref(999_999), 'NOT_MESSAGE');
    await refuses('task_message_retract', ref(id, 'claude-1', { task_id: other }), 'TASK_MISMATCH');
    await refuses('task_message_retract', ref(id, 'codex-1'), 'NOT_SENDER');
    await refuses('task_message_retract', ref(answered), 'ALREADY_REPLIED');
    expect(await ok('task_message_retract', ref(id, 'claude-1', { reason: 'wrong branch' }))).toEqual({
      status: 'retracted',
    });
    await refuses('task_message_retract', ref(id), 'ALREADY_RETRACTED');
    const hits = await ok('search', { query: 'typecheck branch', kind: 'message' });
    expect(hits.map((h: { id: number }) => h.id)).toContain(id);
  });

  it('claims a broadcast, and answers every claim code', async () => {
    const start = T0 + 3 * 60 * MINUTE;
    setClock(clockFile, start);
    const broadcast = await send();
    const directed = await send({ to_agent: 'codex' });
    const expiring = await send({ expires_in_minutes: 1 });
    const retracted = await send();
    await ok('task_message_retract', { message_observation_id: retracted, session_id: 'claude-1' });
    const claim = (message_observation_id: number, session_id = 'codex-1', agent = 'codex') => ({
      message_observation_id,
      session_id,
      agent,
    });
    expect(await ok('task_message_claim', claim(broadcast))).toEqual({
      status: 'claimed',
      claimed_by_session_id: 'codex-1',
      claimed_by_agent: 'codex',
      claimed_at: start,
    });
    setClock(clockFile, start + MINUTE);
    expect((await ok('task_message_claim', claim(broadcast))).claimed_at).toBe(start);
    await refuses('task_message_claim', claim(broadcast, 'codex-2'), 'ALREADY_CLAIMED');
    await refuses('task_message_claim', claim(999_999), 'NOT_MESSAGE');
    await refuses('task_message_claim', claim(directed), 'NOT_BROADCAST');
    await refuses('task_message_claim', claim(expiring, 'cursor-9', 'cursor'), 'NOT_PARTICIPANT');
    await refuses('task_message_claim', claim(expiring, 'claude-1', 'claude'), 'NOT_TARGET_SESSION');
    await refuses('task_message_claim', claim(expiring), 'MESSAGE_EXPIRED');
    await refuses('task_message_claim', claim(retracted), 'ALREADY_RETRACTED');
  });
});

describe('task links over stdio', () => {
  it('links both ways once, lists from either side, unlinks, and refuses bad pairs', async () => {
    const link = await ok('task_link', { task_id: other, other_task_id: main, session_id: 'claude-1', note: 'shared' });
    expect(link).toMatchObject({ low_id: main, high_id: other, created_by: 'claude-1', note: 'shared' });
    const before = await written();
    expect(await ok('task_link', { task_id: main, other_task_id: other, session_id: 'claude-1' })).toEqual(link);
    expect(await written()).toEqual(before);
    const fromMain = await ok('task_links', { task_id: main });
    expect(fromMain).toEqual([{ other_task: expect.objectContaining({ id: other, branch: 'other' }), ...link }]);
    await refuses('task_link', { task_id: main, other_task_id: main, session_id: 'claude-1' }, 'TASK_LINK_SELF');
    await refuses('task_link', { task_id: main, other_task_id: 9999, session_id: 'claude-1' }, 'TASK_NOT_FOUND');
    await refuses('task_links', { task_id: 9999 }, 'TASK_NOT_FOUND');
    await refuses('task_unlink', { task_id: 9999, other_task_id: main }, 'TASK_NOT_FOUND');
    expect(await ok('task_unlink', { task_id: other, other_task_id: main, session_id: 'claude-1' })).toEqual({
      removed: true,
    });
    expect(await ok('task_unlink', { task_id: other, other_task_id: main })).toEqual({ removed: false });
    expect(await ok('task_links', { task_id: other })).toEqual([]);
  });
});

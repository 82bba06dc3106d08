/**
 * Message rows and task links: the guarded lifecycle updates (each changes a row only
 * from the states it names, and says whether it did), the computed expiry, the inbox
 * query's addressing, and links stored once per pair.
 */
import { expect, it } from 'vitest';
import {
  claimMessage,
  deleteTaskLink,
  effectiveStatus,
  ensureTask,
  expireMessage,
  getMessage,
  getTaskLink,
  insertMessage,
  insertObservation,
  insertTaskLink,
  joinTask,
  listInboxMessages,
  listTaskLinks,
  markMessageRead,
  markMessageReplied,
  type NewMessage,
  retractMessage,
  type Store,
  upsertSession,
} from '../src/index';
import { describeMatrix } from './_matrix';

const T0 = 1_000_000;

function seed(store: Store): number {
  for (const id of ['a', 'b', 'c']) upsertSession(store, { id }, T0);
  const { task } = ensureTask(store, { repoRoot: '/r', branch: 'main' }, T0);
  joinTask(store, task.id, 'a', 'claude', T0);
  joinTask(store, task.id, 'b', 'codex', T0);
  return task.id;
}

async function message(store: Store, taskId: number, overrides: Partial<NewMessage> = {}): Promise<number> {
  const id = await insertObservation(store, {
    sessionId: overrides.fromSessionId ?? 'a',
    taskId,
    kind: 'message',
    content: 'body of the message',
    ts: T0,
    tokenCount: 4,
  });
  insertMessage(store, {
    id,
    taskId,
    fromSessionId: 'a',
    fromAgent: 'claude',
    toAgent: 'any',
    toSessionId: null,
    urgency: 'fyi',
    status: 'unread',
    replyTo: null,
    createdAt: T0,
    expiresAt: null,
    statusChangedAt: T0,
    ...overrides,
  });
  return id;
}

describeMatrix('messages', ({ open }) => {
  it('moves unread -> read -> replied, each step once', async () => {
    const store = open();
    const id = await message(store, seed(store));
    expect(markMessageRead(store, id, T0 + 1)).toBe(true);
    expect(markMessageRead(store, id, T0 + 2)).toBe(false);
    expect(getMessage(store, id)).toMatchObject({ status: 'read', statusChangedAt: T0 + 1 });
    expect(markMessageReplied(store, id, T0 + 3)).toBe(true);
    expect(markMessageReplied(store, id, T0 + 4)).toBe(false);
    expect(retractMessage(store, id, T0 + 5)).toBe(false);
    expect(getMessage(store, id)?.status).toBe('replied');
  });

  it('treats an unread row past its TTL as expired until and after it is written down', async () => {
    const store = open();
    const id = await message(store, seed(store), { expiresAt: T0 + 100 });
    const row = () => getMessage(store, id)!;
    expect(effectiveStatus(row(), T0 + 99)).toBe('unread');
    expect(effectiveStatus(row(), T0 + 100)).toBe('expired');
    expect(markMessageRead(store, id, T0 + 100)).toBe(false);
    expect(markMessageReplied(store, id, T0 + 100)).toBe(false);
    expect(claimMessage(store, id, 'b', 'codex', T0 + 100)).toBe(false);
    expect(expireMessage(store, id, T0 + 99)).toBe(false);
    expect(expireMessage(store, id, T0 + 100)).toBe(true);
    expect(expireMessage(store, id, T0 + 101)).toBe(false);
    expect(row().status).toBe('expired');
    expect(retractMessage(store, id, T0 + 102)).toBe(true);
    expect(retractMessage(store, id, T0 + 103)).toBe(false);
  });

  it('lets exactly one session claim a broadcast, and never a directed message', async () => {
    const store = open();
    const taskId = seed(store);
    const broadcast = await message(store, taskId);
    const directed = await message(store, taskId, { toAgent: 'codex' });
    expect(claimMessage(store, broadcast, 'b', 'codex', T0 + 1)).toBe(true);
    expect(claimMessage(store, broadcast, 'c', 'codex', T0 + 2)).toBe(false);
    expect(getMessage(store, broadcast)).toMatchObject({
      claimedBySessionId: 'b',
      claimedByAgent: 'codex',
      claimedAt: T0 + 1,
    });
    expect(claimMessage(store, directed, 'b', 'codex', T0 + 1)).toBe(false);
  });

  it('lists the inbox of a participant by address, with the head of each body', async () => {
    const store = open();
    const taskId = seed(store);
    const toB = await message(store, taskId, { toSessionId: 'b', urgency: 'blocking' });
    const toCodex = await message(store, taskId, { toAgent: 'codex', createdAt: T0 + 1 });
    await message(store, taskId, { toAgent: 'claude' });
    await message(store, taskId, { toSessionId: 'c' });
    const inbox = (extra: Partial<Parameters<typeof listInboxMessages>[1]> = {}) =>
      listInboxMessages(store, { sessionId: 'b', agent: 'codex', now: T0, unreadOnly: true, limit: 10, ...extra }).map(
        (m) => m.id,
      );
    expect(inbox()).toEqual([toCodex, toB]);
    expect(inbox({ urgencies: ['blocking'] })).toEqual([toB]);
    expect(inbox({ taskIds: [taskId + 1] })).toEqual([]);
    expect(inbox({ sinceTs: T0 })).toEqual([toCodex]);
    expect(listInboxMessages(store, { sessionId: 'c', agent: 'codex', now: T0, unreadOnly: false, limit: 10 })).toEqual(
      [],
    );
    expect(
      listInboxMessages(store, { sessionId: 'b', agent: 'codex', now: T0, unreadOnly: true, limit: 1 })[0]?.head,
    ).toBe('body of the message');
  });
});

describeMatrix('task links', ({ open }) => {
  it('stores a pair once, low id first, and deletes it from either side', () => {
    const store = open();
    upsertSession(store, { id: 'a' }, T0);
    const one = ensureTask(store, { repoRoot: '/r', branch: 'one' }, T0).task.id;
    const two = ensureTask(store, { repoRoot: '/r', branch: 'two' }, T0).task.id;
    const first = insertTaskLink(store, { taskId: two, otherTaskId: one, createdBy: 'a', note: 'n' }, T0);
    expect(first).toEqual({
      created: true,
      link: { lowId: one, highId: two, createdAt: T0, createdBy: 'a', note: 'n' },
    });
    expect(insertTaskLink(store, { taskId: one, otherTaskId: two, createdBy: 'b' }, T0 + 1)).toEqual({
      created: false,
      link: first.link,
    });
    expect(getTaskLink(store, two, one)).toEqual(first.link);
    expect(listTaskLinks(store, two).map((l) => l.other.id)).toEqual([one]);
    expect(listTaskLinks(store, one).map((l) => l.other.id)).toEqual([two]);
    expect(deleteTaskLink(store, two, one)).toBe(true);
    expect(deleteTaskLink(store, one, two)).toBe(false);
    expect(listTaskLinks(store, one)).toEqual([]);
  });
});

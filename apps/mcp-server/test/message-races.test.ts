/**
 * Message lifecycle races across real OS processes, all on one store: every
 * transition is a guarded update inside one write transaction, so exactly one of the racing
 * calls wins, the losers are told why, and the audit trail matches the final state.
 */
import { join } from 'node:path';
import { getMessage, getObservations, repliesTo } from '@swarm/storage';
import { afterEach, describe, expect, it } from 'vitest';
import { openTestStore } from './_backend';
import { serverFleet, tempDir } from './_harness';

const REPO = '/abs/message-race-repo';
/** A lost write lock, on either backend: none may reach a caller or the log. */
const LOCK_FAILURE = /SQLITE_BUSY|database is locked|deadlock detected|could not serialize|lock timeout/i;

describe('message races between server processes', () => {
  const { start, closeAll } = serverFleet();
  afterEach(closeAll);

  it('lets exactly one of eight processes claim a broadcast; the other seven get ALREADY_CLAIMED', async () => {
    const dir = tempDir();
    const db = join(dir, 'colony.db');
    const fleet = await Promise.all(Array.from({ length: 8 }, () => start(db, dir)));
    const thread = { repo_root: REPO, branch: 'main' };
    const opened = await fleet[0]!.call('task_thread', { ...thread, session_id: 'claude-sender', agent: 'claude' });
    const taskId = opened.payload.task_id as number;
    await Promise.all(
      fleet.map((s, i) => s.call('task_thread', { ...thread, session_id: `codex-${i}`, agent: 'codex' })),
    );
    const sent = await fleet[0]!.call('task_message', {
      task_id: taskId,
      session_id: 'claude-sender',
      agent: 'claude',
      content: 'who takes the release notes?',
    });
    const id = sent.payload.message_observation_id as number;

    const answers = await Promise.all(
      fleet.map((s, i) =>
        s.call('task_message_claim', { message_observation_id: id, session_id: `codex-${i}`, agent: 'codex' }),
      ),
    );
    const winners = answers.filter((a) => !a.isError);
    expect(winners).toHaveLength(1);
    const winner = winners[0]!.payload;
    expect(winner).toMatchObject({ status: 'claimed', claimed_by_agent: 'codex' });
    const losers = answers.filter((a) => a.isError);
    expect(losers.map((a) => a.payload.code)).toEqual(Array(7).fill('ALREADY_CLAIMED'));
    for (const loser of losers) expect(loser.payload.claimed_by_session_id).toBe(winner.claimed_by_session_id);

    const store = await openTestStore(db);
    try {
      expect(await getMessage(store, id)).toMatchObject({
        claimedBySessionId: winner.claimed_by_session_id,
        claimedAt: winner.claimed_at,
      });
      const audit = await getObservations(store, await repliesTo(store, id));
      expect(audit.map((o) => [o.kind, o.sessionId])).toEqual([['message_claim', winner.claimed_by_session_id]]);
    } finally {
      await store.close();
    }
    for (const s of fleet) expect(s.stderr()).not.toMatch(LOCK_FAILURE);
  });

  it('lets exactly one of a retract and a reply racing from two processes win, ten rounds over', async () => {
    const dir = tempDir();
    const db = join(dir, 'colony.db');
    const [sender, recipient] = await Promise.all([start(db, dir), start(db, dir)]);
    const thread = { repo_root: REPO, branch: 'main' };
    const taskId = (await sender!.call('task_thread', { ...thread, session_id: 'claude-a', agent: 'claude' })).payload
      .task_id as number;
    await recipient!.call('task_thread', { ...thread, session_id: 'codex-b', agent: 'codex' });
    const store = await openTestStore(db);
    const wins = { retract: 0, reply: 0 };
    try {
      for (let round = 0; round < 10; round++) {
        const sent = await sender!.call('task_message', {
          task_id: taskId,
          session_id: 'claude-a',
          agent: 'claude',
          to_agent: 'codex',
          urgency: 'needs_reply',
          content: `round ${round}: can you confirm the migration order?`,
        });
        const id = sent.payload.message_observation_id as number;
        const retract = () =>
          sender!.call('task_message_retract', { message_observation_id: id, session_id: 'claude-a', reason: 'moot' });
        const reply = () =>
          recipient!.call('task_message', {
            task_id: taskId,
            session_id: 'codex-b',
            agent: 'codex',
            reply_to: id,
            content: `round ${round}: confirmed`,
          });
        // Alternate which call is issued first, so both orders get their chance.
        const [retracted, replied] =
          round % 2 === 0
            ? await Promise.all([retract(), reply()])
            : await Promise.all([reply(), retract()]).then(([b, a]) => [a, b] as const);

        expect(
          [retracted.isError, replied.isError].filter((failed) => !failed),
          `round ${round}`,
        ).toHaveLength(1);
        const audit = await getObservations(store, await repliesTo(store, id));
        const kinds = audit.map((o) => o.kind);
        const status = (await getMessage(store, id))?.status;
        if (!retracted.isError) {
          wins.retract++;
          expect(replied.payload.code).toBe('ALREADY_RETRACTED');
          expect(status).toBe('retracted');
          expect(kinds).toEqual(['message_retract']);
        } else {
          wins.reply++;
          expect(retracted.payload.code).toBe('ALREADY_REPLIED');
          expect(status).toBe('replied');
          expect(kinds).toEqual(['message']);
          expect(audit[0]?.id).toBe(replied.payload.message_observation_id);
        }
      }
    } finally {
      await store.close();
    }
    expect(wins.retract + wins.reply).toBe(10);
    for (const s of [sender!, recipient!]) expect(s.stderr()).not.toMatch(LOCK_FAILURE);
  });
});

/**
 * One handoff, eight server processes accepting it at the same moment, each for its
 * own session: exactly one wins, seven answer ALREADY_ACCEPTED, the claims move once,
 * and the audit trail holds one acceptance. The first round fires each accept as soon
 * as its server has connected, while the others are still starting on the same store
 * (one SQLite file, or one PostgreSQL database: the `mcp-server-pg` project).
 */
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ColonyStore, getObservation, repliesTo, sessionClaims } from '@swarm/storage';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestColony, openTestStore } from './_backend';
import { type CallResult, type Server, startServer, tempDir } from './_harness';

const REPO = '/abs/race-handoff-repo';
const FLEET = 8;
const ROUNDS = 4;
const acceptors = Array.from({ length: FLEET }, (_, i) => `codex-race-${i}`);

let dir: string;
let db: string;
let taskId: number;
let store: ColonyStore;
const servers: Server[] = [];

/** Claims three files as the sender and hands them to codex; returns the handoff id and files. */
async function setUpRound(round: number): Promise<{ id: number; files: string[] }> {
  const colony = await openTestColony({ home: dir, dbPath: db, receipts: false, roots: [tmpdir()] });
  try {
    const call = async (tool: string, args: Record<string, unknown>) => {
      const outcome = await colony.handleToolCall(tool, args);
      if (!outcome.ok) throw new Error(outcome.text);
      return outcome.value as Record<string, unknown>;
    };
    const files = ['a.ts', 'b.ts', 'c.ts'].map((f) => `src/round-${round}/${f}`);
    for (const file of files)
      await call('task_claim_file', { task_id: taskId, session_id: 'claude-sender', file_path: file });
    const handoff = await call('task_hand_off', {
      task_id: taskId,
      session_id: 'claude-sender',
      to_agent: 'codex',
      summary: `round ${round}: take the parser files`,
      transferred_files: files,
    });
    return { id: handoff.handoff_observation_id as number, files };
  } finally {
    await colony.close();
  }
}

async function expectOneWinner(answers: readonly CallResult[], id: number, files: readonly string[]): Promise<void> {
  const winners = answers.filter((a) => !a.isError);
  const losers = answers.filter((a) => a.isError);
  expect(winners.map((w) => w.payload)).toEqual([{ status: 'accepted' }]);
  expect(losers.map((l) => l.payload.code)).toEqual(Array(FLEET - 1).fill('ALREADY_ACCEPTED'));
  const winner = acceptors[answers.findIndex((a) => !a.isError)]!;

  const live = async (session: string) =>
    (await sessionClaims(store, taskId, session, ['active', 'handoff_pending']))
      .filter((c) => files.includes(c.filePath))
      .map((c) => c.filePath);
  expect(await live(winner)).toEqual(files);
  for (const session of [...acceptors.filter((s) => s !== winner), 'claude-sender']) {
    expect(await live(session)).toEqual([]);
  }
  const senderRows = (await sessionClaims(store, taskId, 'claude-sender', ['released'])).filter((c) =>
    files.includes(c.filePath),
  );
  expect(senderRows).toHaveLength(files.length);

  const audit = await Promise.all((await repliesTo(store, id)).map((r) => getObservation(store, r)));
  expect(audit.map((o) => [o?.kind, o?.sessionId])).toEqual([['handoff_accepted', winner]]);
}

beforeAll(async () => {
  dir = tempDir();
  db = join(dir, 'colony.db');
  const colony = await openTestColony({ home: dir, dbPath: db, receipts: false, roots: [tmpdir()] });
  try {
    const thread = (session_id: string, agent: string) =>
      colony.handleToolCall('task_thread', { repo_root: REPO, branch: 'main', session_id, agent });
    const opened = await thread('claude-sender', 'claude');
    if (!opened.ok) throw new Error(opened.text);
    taskId = (opened.value as { task_id: number }).task_id;
    for (const session of acceptors) await thread(session, 'codex');
  } finally {
    await colony.close();
  }
  store = await openTestStore(db);
});

afterAll(async () => {
  await store?.close();
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

describe('eight processes accepting one handoff', () => {
  it('gives it to exactly one, also when the accepts race the servers starting up', async () => {
    const { id, files } = await setUpRound(0);
    // Each accept goes out the moment its own server answers initialize.
    const answers = await Promise.all(
      acceptors.map(async (session) => {
        const server = await startServer({ db, home: dir });
        servers.push(server);
        return server.call('task_accept_handoff', { handoff_observation_id: id, session_id: session });
      }),
    );
    await expectOneWinner(answers, id, files);

    for (let round = 1; round < ROUNDS; round++) {
      const next = await setUpRound(round);
      const raced = await Promise.all(
        servers.map((server, i) =>
          server.call('task_accept_handoff', { handoff_observation_id: next.id, session_id: acceptors[i] }),
        ),
      );
      await expectOneWinner(raced, next.id, next.files);
    }
    for (const server of servers)
      expect(server.stderr()).not.toMatch(
        /SQLITE_BUSY|database is locked|deadlock detected|could not serialize|internal error/i,
      );
  }, 120_000);
});

/**
 * Sixteen server processes claiming one plan sub-task at the same moment, each for its
 * own session, fifty rounds over on SQLite and two hundred on PostgreSQL (the
 * `mcp-server-pg` project; one freshly published plan per round): exactly one
 * wins at its first attempt, the other fifteen answer PLAN_SUBTASK_NOT_AVAILABLE with a
 * next_available hint, the file claims and the audit trail name the winner only, and
 * no caller ever sees "database is locked" or an internal error. The first round fires
 * each claim as soon as its own server has connected, while the others still start.
 */
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type ColonyStore,
  getObservations,
  getSubtask,
  plansWithSlug,
  sessionClaims,
  subtaskClaims,
  taskTimeline,
} from '@swarm/storage';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ON_POSTGRES, openTestColony, openTestStore } from './_backend';
import { type CallResult, type Server, serverFleet, tempDir } from './_harness';

const REPO = tempDir('colony-plan-race-repo-');
const FLEET = 16;
const ROUNDS = ON_POSTGRES ? 200 : 50;
const racers = Array.from({ length: FLEET }, (_, i) => ({
  session_id: `racer-${i}`,
  agent: i % 2 === 0 ? 'codex' : 'claude',
}));
const slugOf = (round: number) => `race-round-${round}`;
const filesOf = (round: number) => [`src/round-${round}/parser.ts`, `src/round-${round}/lexer.ts`];

let dir: string;
let db: string;
let store: ColonyStore;
const fleet = serverFleet();

/** Publishes every round's plan up front: sub-0 is raced for, sub-1 (other files) stays free. */
async function publishRounds(): Promise<void> {
  const colony = await openTestColony({ home: dir, dbPath: db, receipts: false, roots: [tmpdir()] });
  try {
    for (let round = 0; round < ROUNDS; round++) {
      await colony.plans.publish({
        repo_root: REPO,
        slug: slugOf(round),
        session_id: 'queen',
        agent: 'claude',
        title: `Race round ${round}`,
        problem: 'Sixteen agents want the same sub-task.',
        acceptance_criteria: ['exactly one of them gets it'],
        subtasks: [
          { title: 'Parser', description: 'Rewrite the parser.', file_scope: filesOf(round) },
          { title: 'Docs', description: 'Document it.', file_scope: [`docs/round-${round}.md`] },
        ],
      });
    }
  } finally {
    await colony.close();
  }
}

const claimArgs = (round: number, i: number) => ({ plan_slug: slugOf(round), subtask_index: 0, ...racers[i] });

async function expectOneWinner(round: number, answers: readonly CallResult[]): Promise<void> {
  const winners = answers.filter((a) => !a.isError);
  const losers = answers.filter((a) => a.isError);
  expect(winners, `round ${round}`).toHaveLength(1);
  const plan = (await plansWithSlug(store, slugOf(round)))[0]!;
  const subtask = (await getSubtask(store, plan.id, 0))!;
  expect(winners[0]!.payload).toEqual({ task_id: subtask.taskId, branch: subtask.branch, file_scope: filesOf(round) });
  expect(losers.map((l) => l.payload.code)).toEqual(Array(FLEET - 1).fill('PLAN_SUBTASK_NOT_AVAILABLE'));
  for (const loser of losers) {
    expect(loser.payload).toMatchObject({ status: 'claimed', next_available: [{ subtask_index: 1, title: 'Docs' }] });
  }

  const winner = racers[answers.findIndex((a) => !a.isError)]!;
  expect(subtask).toMatchObject({
    status: 'claimed',
    claimedBySessionId: winner.session_id,
    claimedByAgent: winner.agent,
  });
  expect((await subtaskClaims(store, subtask.id)).map((c) => [c.sessionId, c.state])).toEqual([
    [winner.session_id, 'active'],
  ]);
  for (const { session_id } of racers) {
    const live = (await sessionClaims(store, subtask.taskId, session_id, ['active'])).map((c) => c.filePath);
    expect(live, session_id).toEqual(session_id === winner.session_id ? filesOf(round) : []);
  }
  const timeline = await taskTimeline(store, subtask.taskId, 50);
  const audit = (
    await getObservations(
      store,
      timeline.map((o) => o.id),
    )
  ).filter((o) => o.kind === 'plan-subtask-claim');
  expect(audit.map((o) => o.sessionId)).toEqual([winner.session_id]);
}

beforeAll(async () => {
  dir = tempDir();
  db = join(dir, 'colony.db');
  await publishRounds();
  store = await openTestStore(db);
}, 120_000);

afterAll(async () => {
  await store?.close();
  await fleet.closeAll();
});

describe(`${FLEET} processes claiming one plan sub-task`, () => {
  it(`gives it to exactly one, ${ROUNDS} rounds over, starting while the servers start`, async () => {
    const servers: Server[] = [];
    const first = await Promise.all(
      racers.map(async (_, i) => {
        const server = await fleet.start(db, dir);
        servers[i] = server;
        return server.call('task_plan_claim_subtask', claimArgs(0, i));
      }),
    );
    await expectOneWinner(0, first);

    for (let round = 1; round < ROUNDS; round++) {
      const answers = await Promise.all(
        servers.map((server, i) => server.call('task_plan_claim_subtask', claimArgs(round, i))),
      );
      await expectOneWinner(round, answers);
    }
    for (const server of servers) {
      expect(server.stderr()).not.toMatch(/SQLITE_BUSY|database is locked|internal error/i);
    }
  }, 600_000);
});

/**
 * `colony swarm` on a PostgreSQL store end to end: the built CLI as real processes with
 * `--db postgres://…` (a throwaway cluster of test/support/pg-cluster.mjs), the real
 * Anthropic SDK against the fake Messages API on 127.0.0.1. Two agents take a published
 * plan; backend's blocking task_message and the operator's urgent `swarm send` reach
 * the waiting agent by LISTEN/NOTIFY, far sooner than the 5 s safety poll; `stop
 * --merge` merges both branches; the rows are in PostgreSQL and no SQLite file exists.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type FakeAnthropic, type FakeAnthropicReply, startFakeAnthropic } from '@swarm/providers/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase, findPgBin, psqlQuery, startCluster } from '../../../test/support/pg-cluster.mjs';
import { agentOf, type StartedCli, settingsFor, swarmFixture, systemText, until } from './_swarm';

const RUNS = findPgBin() !== undefined || process.env.CI === 'true';
if (!RUNS) console.warn('[swarm on PostgreSQL] skipped: no PostgreSQL server binaries (set PG_BIN)');

const SUBTASKS = [
  { title: 'API endpoint', description: 'Write api.ts', file_scope: ['api.ts'] },
  { title: 'UI page', description: 'Write ui.ts', file_scope: ['ui.ts'] },
];
const API_READY = 'API ready: GET /items answers JSON.';
/** Well under the wake source's 5 s safety poll: only a notice delivers this fast. */
const NOTIFY_MS = 1000;

/** Files in `dir` and below that a SQLite store would leave. */
function sqliteFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => /\.db(-wal|-shm)?$/.test(f));
}

/** The JSON answer of the tool call a request reports last. */
// biome-ignore lint/suspicious/noExplicitAny: a wire body
function lastToolResult(body: { messages: any[] }) {
  const blocks = body.messages.at(-1)?.content as { type: string; content: string }[];
  return JSON.parse(blocks.find((b) => b.type === 'tool_result')?.content ?? 'null');
}

/**
 * The model of the team: backend takes sub-task 0, then tells frontend on the session's
 * thread (the one the swarm's mailbox reads), blocking; frontend waits on a held stream
 * until told, takes sub-task 1, then waits again (for the operator).
 */
function fakeTeam() {
  const team = { repo: '', messagedAt: 0, holds: 0, reply };
  const hold = (text: string): FakeAnthropicReply => {
    team.holds++;
    return { kind: 'hold', text };
  };
  // biome-ignore lint/suspicious/noExplicitAny: a wire body
  function reply(body: { messages: any[] }): FakeAnthropicReply {
    const agent = agentOf(body);
    const step = (body.messages.length - 1) / 2;
    const system = systemText(body);
    const idle = { text: 'Nothing left to do.' };
    if (agent === 'backend') {
      const me = /Your colony session_id is (\S+);/.exec(system)?.[1] ?? '';
      const calls = [
        { name: 'task_plan_claim_subtask', input: { plan_slug: 'demo', subtask_index: 0 } },
        { name: 'write', input: { path: 'api.ts', content: '// api by backend\n' } },
        { name: 'task_plan_complete_subtask', input: { plan_slug: 'demo', subtask_index: 0, summary: 'api.ts' } },
        { name: 'task_thread', input: { repo_root: team.repo, branch: 'main' } },
        {
          name: 'task_message',
          input: {
            task_id: step === 4 ? lastToolResult(body).task_id : 0,
            content: API_READY,
            to_session_id: me.replace(/-backend$/, '-frontend'),
            urgency: 'blocking',
          },
        },
      ];
      if (team.messagedAt > 0 || step >= calls.length) return idle;
      if (step === calls.length - 1) team.messagedAt = performance.now();
      return { tool_uses: [calls[step]!] };
    }
    if (agent !== 'frontend') return idle;
    if (team.holds === 0) return hold('Waiting for the API');
    if (!system.includes(API_READY)) return idle;
    const calls = [
      { name: 'task_plan_claim_subtask', input: { plan_slug: 'demo', subtask_index: 1 } },
      { name: 'write', input: { path: 'ui.ts', content: '// ui by frontend\n' } },
      { name: 'task_plan_complete_subtask', input: { plan_slug: 'demo', subtask_index: 1, summary: 'ui.ts' } },
    ];
    if (step < calls.length) return { tool_uses: [calls[step]!] };
    return team.holds === 1 ? hold('Reviewing the page') : idle;
  }
  return team;
}

describe.skipIf(!RUNS)('colony swarm on PostgreSQL (E2E, real SDK against a fake Messages API)', () => {
  let cluster: ReturnType<typeof startCluster>;
  let fake: FakeAnthropic | null = null;
  let started: StartedCli[] = [];

  beforeAll(() => {
    cluster = startCluster();
  }, 60_000);
  afterAll(() => cluster?.stop());
  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail') for (const s of started) console.error(s.output());
    for (const s of started) if (s.child.exitCode === null) s.child.kill('SIGKILL');
    await Promise.all(started.map((s) => s.exited()));
    started = [];
    await fake?.close();
    fake = null;
  });

  it('agents work a plan, wake each other by LISTEN/NOTIFY, and merge back, all on the database', async () => {
    const url = createDatabase(cluster.dir, `swarm_${process.pid}`);
    const team = fakeTeam();
    fake = await startFakeAnthropic({ respond: (r) => team.reply(r.body) });
    const f = swarmFixture(settingsFor(fake.baseURL), { db: url });
    team.repo = f.repo;
    await f.publishDemoPlan({
      problem: 'An API and its page.',
      acceptance_criteria: ['both files exist'],
      subtasks: SUBTASKS,
    });
    const start = f.start();
    started.push(start);
    await start.waitFor(/session \d{8}-[0-9a-f]{4} started: backend, frontend, supervisor/);
    // The runner listens on colony_wake (a session of its own on the server).
    await until(
      async () => psqlQuery(url, "SELECT count(*) FROM pg_stat_activity WHERE query = 'LISTEN colony_wake'") === '1',
      10_000,
      'the LISTEN session',
    );

    // backend's blocking message drops frontend's held request at once.
    await until(async () => fake!.dropped() === 1, 15_000, 'frontend woken by the message');
    expect(performance.now() - team.messagedAt).toBeLessThan(NOTIFY_MS);
    const done = await until(
      async () => {
        const s = await f.status();
        return s.plans.completed === 2 && s;
      },
      15_000,
      'the plan to complete',
    );
    expect(done.session?.active).toBe(true);
    const interrupted = fake.requests.find(
      (r) => agentOf(r.body) === 'frontend' && systemText(r.body).includes('Interrupt Context'),
    );
    expect(systemText(interrupted?.body)).toContain(API_READY);

    // The operator's urgent word, from another process, drops the next held request too.
    await until(async () => team.holds === 2, 10_000, 'the second held request');
    const send = await f.colony(['swarm', 'send', 'frontend', 'Ship it as is.', '--urgent']);
    expect(send.stderr).toBe('');
    // The CLI process wrote and exited: the wake-up is at most NOTIFY_MS behind.
    await until(async () => fake!.dropped() === 2, NOTIFY_MS, 'frontend woken by the operator');

    const stop = await f.colony(['swarm', 'stop', '--merge']);
    expect(stop.stderr).toBe('');
    expect(stop.code).toBe(0);
    expect(await start.exited()).toBe(0);
    const merges = f.git('log', '--first-parent', '--format=%s').split('\n').slice(0, 2);
    expect(merges.sort()).toEqual(['Merge agent: backend', 'Merge agent: frontend']);
    expect(readFileSync(join(f.repo, 'api.ts'), 'utf8')).toBe('// api by backend\n');
    expect(readFileSync(join(f.repo, 'ui.ts'), 'utf8')).toBe('// ui by frontend\n');
    expect(f.git('worktree', 'list').split('\n')).toHaveLength(1);

    // The store was PostgreSQL: the plan, the message and the operator's word are rows there.
    const count = (sql: string) => Number(psqlQuery(url, sql));
    expect(count("SELECT count(*) FROM messages WHERE urgency = 'blocking' AND status = 'read'")).toBe(2);
    expect(count('SELECT count(*) FROM plan_subtasks')).toBe(2);
    expect(psqlQuery(url, "SELECT string_agg(status, ',' ORDER BY subtask_index) FROM plan_subtasks")).toBe(
      'completed,completed',
    );
    expect(sqliteFiles(f.dir)).toEqual([]);
  }, 45_000);
});

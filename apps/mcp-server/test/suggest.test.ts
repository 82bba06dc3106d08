/**
 * task_suggest_approach and hybrid search over the real wire: a server process whose
 * clock the test drives, a seeded history of completed tasks written through tool calls,
 * and vectors filled by the server itself while idle (no embedding on the write path).
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type ColonyStore, countObservations, countVectors } from '@swarm/storage';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedHistory } from '../../../packages/coordination/test/_suggest-history';
import { openTestStore } from './_backend';
import { calls, serverClock } from './_calls';
import { type Server, startServer, tempDir } from './_harness';

const QUERY = 'quota relay stale claims cleanup';
let server: Server;
let store: ColonyStore;
let repo: string;
let seeded: Awaited<ReturnType<typeof seedHistory>>;

const snapshot = async () => ({ observations: await countObservations(store) });
const { ok, refused } = calls(() => server, snapshot);

/** Asks until the server's idle backfill has built the vectors (or 20 s pass). */
async function settledSuggestion(args: Record<string, unknown>) {
  const deadline = Date.now() + 20_000;
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 150));
    const s = await ok('task_suggest_approach', args);
    if (s.insufficient_data_reason === null || Date.now() > deadline) return s;
  }
}

beforeAll(async () => {
  const dir = tempDir();
  repo = join(dir, 'repo');
  mkdirSync(repo);
  const db = join(dir, 'colony.db');
  const clockFile = join(dir, 'clock');
  const clock = serverClock(clockFile, Date.UTC(2026, 0, 1));
  server = await startServer({ db, clockFile });
  seeded = await seedHistory(ok, (ms) => clock.advance(ms), repo);
  store = await openTestStore(db);
}, 60_000);

afterAll(async () => {
  await server?.close();
  await store?.close();
});

describe('task_suggest_approach over MCP stdio', () => {
  it('suggests the similar completed tasks once the idle backfill has run', async () => {
    const s = await settledSuggestion({ query: QUERY, repo_root: repo, current_task_id: seeded.current, limit: 5 });
    expect(s.insufficient_data_reason).toBeNull();
    expect(await countVectors(store, 'hash-v1-256')).toBeGreaterThan(0);
    const ids = s.similar_tasks.map((t: { task_id: number }) => t.task_id);
    expect(ids).toEqual(expect.arrayContaining([seeded.a, seeded.b]));
    expect(ids).not.toContain(seeded.other);
    expect(ids).not.toContain(seeded.current);
    expect(s.first_files_likely_claimed[0]).toMatchObject({
      file_path: 'packages/storage/src/claims.ts',
      appears_in_count: 2,
    });
    expect(s.patterns_to_watch.map((p: { kind: string }) => p.kind)).toEqual(
      expect.arrayContaining(['failed_approach', 'expired-handoff']),
    );
    expect(s.resolution_hints.completed_sample_size).toBe(2);
    expect(Object.keys(s).sort()).toEqual(
      [
        'budget',
        'first_files_likely_claimed',
        'insufficient_data_reason',
        'patterns_to_watch',
        'resolution_hints',
        'similar_tasks',
      ].sort(),
    );
    expect(s.budget).toMatchObject({ hydrate_with: 'task_timeline' });
  });

  it('keeps search hits compact once vectors exist', async () => {
    await settledSuggestion({ query: QUERY });
    const hits = await ok('search', { query: 'stale claims cleanup', limit: 5 });
    expect(hits.length).toBeGreaterThan(0);
    for (const hit of hits) {
      expect(Object.keys(hit).sort()).toEqual(['id', 'kind', 'score', 'snippet', 'task_id']);
    }
  });

  it('answers TASK_NOT_FOUND and INVALID_PARAMETERS without writing', async () => {
    await refused('task_suggest_approach', { query: QUERY, current_task_id: 424242 }, 'TASK_NOT_FOUND');
    await refused('task_suggest_approach', { query: QUERY, limit: 0 }, 'INVALID_PARAMETERS');
    await refused('task_suggest_approach', { limit: 3 }, 'INVALID_PARAMETERS');
  });
});

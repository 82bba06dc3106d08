/**
 * savings_report over the real MCP SDK client: the server's own receipts of earlier
 * calls (counted on its token worker, written after each answer) are what the report
 * sums; env rates price them; and a read-only call by a session moves its heartbeat.
 */
import { join } from 'node:path';
import { countObservations, getSession } from '@swarm/storage';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestStore } from './_backend';
import { calls, serverClock } from './_calls';
import { type Server, startServer, tempDir } from './_harness';

const T0 = Date.UTC(2026, 5, 1, 12);
const REPO = '/tmp/colony-savings-repo';

describe('savings_report over stdio', () => {
  let server: Server;
  let db: string;
  let clock: ReturnType<typeof serverClock>;
  const { ok, refused } = calls(
    () => server,
    () => null,
  );

  beforeAll(async () => {
    const dir = tempDir();
    db = join(dir, 'colony.db');
    const clockFile = join(dir, 'clock');
    clock = serverClock(clockFile, T0);
    server = await startServer({
      db,
      home: dir,
      clockFile,
      env: { COLONY_MCP_INPUT_USD_PER_1M: '3', COLONY_MCP_OUTPUT_USD_PER_1M: '15' },
    });
  });
  afterAll(async () => {
    await server?.close();
  });

  async function observationCount(): Promise<number> {
    const store = await openTestStore(db);
    try {
      return await countObservations(store);
    } finally {
      await store.close();
    }
  }

  it('sums the receipts of the calls before it, priced at the environment rates', async () => {
    await ok('task_thread', { repo_root: REPO, branch: 'main', session_id: 'sess_a', agent: 'claude' });
    await ok('search', { query: 'anything' });
    await ok('search', { query: 'other' });
    const missing = await server.call('get_observations', { ids: [999] });
    expect(missing.isError).toBe(true);
    const report = await ok('savings_report', {});
    const byOp = Object.fromEntries(report.live.operations.map((o: { operation: string }) => [o.operation, o]));
    expect(byOp.search).toMatchObject({ calls: 2, ok_count: 2, error_count: 0 });
    expect(byOp.search.input_tokens).toBeGreaterThan(0);
    expect(byOp.search.output_tokens).toBeGreaterThan(0);
    expect(byOp.get_observations.error_reasons).toEqual([
      expect.objectContaining({ error_code: 'OBSERVATION_NOT_FOUND', count: 1 }),
    ]);
    expect(report.live.totals).toMatchObject({ operation: '__total__', calls: 4, error_count: 1 });
    expect(report.live.cost_basis).toEqual({
      input_usd_per_1m_tokens: 3,
      output_usd_per_1m_tokens: 15,
      configured: true,
    });
    const t = report.live.totals;
    expect(t.total_cost_usd).toBeCloseTo((t.input_tokens * 3 + t.output_tokens * 15) / 1e6, 6);
    expect(report.reference.kind).toBe('static_per_session_model');
    expect(report.reference.rows.length).toBeGreaterThan(3);
    expect(report.reference.totals.savings_pct).toBeGreaterThan(0);
  });

  it('counts itself in the next report', async () => {
    const report = await ok('savings_report', { operation: 'savings_report' });
    expect(report.live.operations).toEqual([expect.objectContaining({ operation: 'savings_report', calls: 1 })]);
  });

  it('refuses hours over 720 with INVALID_PARAMETERS', async () => {
    const error = await refused('savings_report', { hours: 1000 }, 'INVALID_PARAMETERS');
    expect(error.fields).toEqual(['hours']);
  });

  it("moves a session's heartbeat on a read-only call (the receipt is a sign of life)", async () => {
    clock.advance(30 * 60_000);
    const before = await observationCount();
    await ok('task_list', { session_id: 'sess_a' });
    await ok('savings_report', { hours: 1 }); // flushes the earlier receipt first
    const store = await openTestStore(db);
    try {
      expect((await getSession(store, 'sess_a'))?.lastHeartbeatAt).toBe(T0 + 30 * 60_000);
      expect(await countObservations(store)).toBe(before); // a read writes no observation
    } finally {
      await store.close();
    }
  });
});

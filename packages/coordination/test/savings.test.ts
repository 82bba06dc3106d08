/**
 * savings_report over receipts written straight into mcp_metrics at known times, with
 * known tokens, durations and failures: the window (hours, since_ms precedence), the
 * operation filter, failure reasons, cost at given and configured rates, and the
 * static reference model.
 */
import { insertReceipts, type Receipt } from '@swarm/storage';
import type { SavingsReport } from '@swarm/tools';
import { afterEach, describe, expect, it } from 'vitest';
import { savingsTimeline } from '../src/savings/savings-service';
import { createFixture, type Fixture, START } from './_fixture';

const HOUR = 3_600_000;
let fx: Fixture;
afterEach(() => fx?.close());

function receipt(over: Partial<Receipt>): Receipt {
  return {
    ts: START,
    operation: 'search',
    sessionId: 's1',
    durationMs: 2,
    inputTokens: 100,
    outputTokens: 300,
    ok: true,
    errorCode: null,
    errorMessage: null,
    ...over,
  };
}

async function seed(f: Fixture) {
  f.clock.set(START + 48 * HOUR);
  await insertReceipts(f.store, [
    receipt({ ts: START, operation: 'search' }), // 48 h old: outside the default window
    receipt({ ts: START + 30 * HOUR, operation: 'search', durationMs: 4 }),
    receipt({ ts: START + 40 * HOUR, operation: 'search', inputTokens: 50, outputTokens: 150, durationMs: 1 }),
    receipt({
      ts: START + 41 * HOUR,
      operation: 'task_post',
      inputTokens: 200,
      outputTokens: 20,
      ok: false,
      errorCode: 'TASK_NOT_FOUND',
      errorMessage: 'task 6 not found',
    }),
    receipt({
      ts: START + 42 * HOUR,
      operation: 'task_post',
      inputTokens: 200,
      outputTokens: 20,
      ok: false,
      errorCode: 'TASK_NOT_FOUND',
      errorMessage: 'task 6 not found',
    }),
    // a failure recorded before reasons were kept
    receipt({ ts: START + 43 * HOUR, operation: 'get_observations', ok: false, inputTokens: 10, outputTokens: 10 }),
  ]);
}

describe('savings_report', () => {
  it('sums the last 24 hours per operation, with failure reasons and a __total__ row', async () => {
    fx = createFixture();
    await seed(fx);
    const report = await fx.ok<SavingsReport>('savings_report', {});
    expect(report.live.window).toEqual({ since: START + 24 * HOUR, until: START + 48 * HOUR, hours: 24 });
    expect(report.live.cost_basis).toEqual({
      input_usd_per_1m_tokens: 0,
      output_usd_per_1m_tokens: 0,
      configured: false,
    });
    const search = report.live.operations.find((o) => o.operation === 'search');
    expect(search).toMatchObject({
      calls: 2,
      ok_count: 2,
      error_count: 0,
      error_reasons: [],
      input_tokens: 150,
      output_tokens: 450,
      total_tokens: 600,
      total_cost_usd: 0,
      avg_input_tokens: 75,
      avg_output_tokens: 225,
      total_duration_ms: 5,
      avg_duration_ms: 2.5,
      last_ts: START + 40 * HOUR,
    });
    const post = report.live.operations.find((o) => o.operation === 'task_post');
    expect(post?.error_reasons).toEqual([
      { error_code: 'TASK_NOT_FOUND', error_message: 'task 6 not found', count: 2, last_ts: START + 42 * HOUR },
    ]);
    expect(report.live.totals).toMatchObject({
      operation: '__total__',
      calls: 5,
      ok_count: 2,
      error_count: 3,
      input_tokens: 560,
      output_tokens: 500,
      last_ts: START + 43 * HOUR,
    });
    expect(report.live.totals.error_reasons).toEqual([
      { error_code: 'TASK_NOT_FOUND', error_message: 'task 6 not found', count: 2, last_ts: START + 42 * HOUR },
      { error_code: 'unknown', error_message: 'unknown', count: 1, last_ts: START + 43 * HOUR },
    ]);
  });

  it('takes since_ms over hours, filters by operation, and prices tokens at the given rates', async () => {
    fx = createFixture();
    await seed(fx);
    const report = await fx.ok<SavingsReport>('savings_report', {
      since_ms: START,
      hours: 1,
      operation: 'search',
      input_usd_per_1m: 2,
      output_usd_per_1m: 10,
    });
    expect(report.live.window).toEqual({ since: START, until: START + 48 * HOUR, hours: 48 });
    expect(report.live.operations.map((o) => o.operation)).toEqual(['search']);
    expect(report.live.totals.calls).toBe(3);
    // (250 in x 2 + 750 out x 10) / 1M
    expect(report.live.totals.total_cost_usd).toBeCloseTo(0.008, 9);
    expect(report.live.totals.avg_cost_usd).toBeCloseTo(0.008 / 3, 6);
    expect(report.live.cost_basis).toEqual({
      input_usd_per_1m_tokens: 2,
      output_usd_per_1m_tokens: 10,
      configured: true,
    });
  });

  it('falls back to the configured rates, and arguments override them', async () => {
    fx = createFixture(undefined, { savingsRates: { input: 1, output: 4 } });
    await seed(fx);
    const configured = await fx.ok<SavingsReport>('savings_report', { operation: 'search' });
    expect(configured.live.cost_basis).toEqual({
      input_usd_per_1m_tokens: 1,
      output_usd_per_1m_tokens: 4,
      configured: true,
    });
    expect(configured.live.totals.total_cost_usd).toBeCloseTo((150 * 1 + 450 * 4) / 1e6, 9);
    const overridden = await fx.ok<SavingsReport>('savings_report', { operation: 'search', output_usd_per_1m: 0 });
    expect(overridden.live.totals.total_cost_usd).toBeCloseTo(150 / 1e6, 9);
  });

  it('reports an empty window as zeros, never dividing by zero', async () => {
    fx = createFixture();
    const report = await fx.ok<SavingsReport>('savings_report', { hours: 720 });
    expect(report.live.operations).toEqual([]);
    expect(report.live.totals).toMatchObject({ calls: 0, avg_cost_usd: 0, avg_duration_ms: 0, last_ts: null });
  });

  it('derives savings_pct and the totals of the reference model per session', async () => {
    fx = createFixture(undefined, {
      savingsReference: {
        note: 'model',
        rows: [
          { operation: 'a', frequency_per_session: 2, baseline_tokens: 1000, colony_tokens: 250, rationale: 'x' },
          { operation: 'b', frequency_per_session: 1, baseline_tokens: 2000, colony_tokens: 1000, rationale: 'y' },
        ],
      },
    });
    const { reference } = await fx.ok<SavingsReport>('savings_report', {});
    expect(reference.kind).toBe('static_per_session_model');
    expect(reference.rows.map((r) => r.savings_pct)).toEqual([75, 50]);
    expect(reference.totals).toEqual({ baseline_tokens: 4000, colony_tokens: 1500, savings_pct: 63 });
  });

  it('refuses a window over 720 hours and unknown arguments, naming the field', async () => {
    fx = createFixture();
    expect(await fx.fail('savings_report', { hours: 721 })).toMatchObject({
      code: 'INVALID_PARAMETERS',
      fields: ['hours'],
    });
    expect(await fx.fail('savings_report', { input_usd_per_1m: -1 })).toMatchObject({ fields: ['input_usd_per_1m'] });
    expect(await fx.ok('savings_report', { window: 3 })).toMatchObject({ ignored_arguments: ['window'] });
  });
});

describe('savingsTimeline (receipts per hour)', () => {
  const timeline = (f: Fixture, hours: number) => savingsTimeline(f, hours);

  it('sums each hour of the window, the current one included, with zero hours present', async () => {
    fx = createFixture();
    await seed(fx); // now = START + 48 h; receipts at +30, +40, +41, +42, +43 h (and one 48 h old)
    fx.clock.set(START + 48 * HOUR + 20 * 60_000); // 20 minutes into hour 48
    await insertReceipts(fx.store, [receipt({ ts: START + 48 * HOUR + 5 * 60_000, inputTokens: 7, outputTokens: 3 })]);
    const t = await timeline(fx, 24);
    expect(t.since).toBe(START + 25 * HOUR);
    expect(t.until).toBe(START + 48 * HOUR + 20 * 60_000);
    expect(t.hours).toHaveLength(24);
    expect(t.hours.map((h) => h.hour)).toEqual(Array.from({ length: 24 }, (_, i) => START + (25 + i) * HOUR));
    const at = (h: number) => t.hours.find((x) => x.hour === START + h * HOUR);
    expect(at(30)).toEqual({
      hour: START + 30 * HOUR,
      calls: 1,
      error_count: 0,
      input_tokens: 100,
      output_tokens: 300,
    });
    expect(at(41)).toEqual({ hour: START + 41 * HOUR, calls: 1, error_count: 1, input_tokens: 200, output_tokens: 20 });
    expect(at(48)).toMatchObject({ calls: 1, input_tokens: 7, output_tokens: 3 });
    expect(at(31)).toMatchObject({ calls: 0, error_count: 0, input_tokens: 0, output_tokens: 0 });
    expect(t.hours.reduce((n, h) => n + h.calls, 0)).toBe(6); // the 48-hour-old receipt is outside
  });

  it('clamps the window to 1..720 hours', async () => {
    fx = createFixture();
    expect((await timeline(fx, 0)).hours).toHaveLength(1);
    expect((await timeline(fx, 10_000)).hours).toHaveLength(720);
  });
});

/**
 * @module savings/savings-service
 * savings_report: the mcp_metrics receipts of a window summed per operation (in SQL),
 * priced at USD-per-1M-token rates, beside the static reference model the composition
 * root passes in. Rates come from the call, else from the configured defaults; with
 * neither, costs are zero and cost_basis.configured is false.
 */
import {
  type ReceiptErrorReason,
  type ReceiptTotals,
  receiptErrorReasons,
  receiptsByHour,
  receiptTotals,
} from '@swarm/storage';
import {
  MAX_SAVINGS_HOURS,
  type SavingsBackend,
  type SavingsErrorReason,
  type SavingsOperationRow,
  type SavingsReferenceRow,
  type SavingsReport,
  type SavingsReportInput,
} from '@swarm/tools';
import { withBudget } from '../budget';
import type { DomainContext } from '../context';

/** USD per one million tokens, as configured (e.g. from COLONY_MCP_*_USD_PER_1M). */
export interface SavingsRates {
  readonly input?: number;
  readonly output?: number;
}

/** A row of the static model before its savings_pct is derived. */
export type ReferenceRow = Omit<SavingsReferenceRow, 'savings_pct'>;

export interface SavingsReference {
  readonly note: string;
  readonly rows: readonly ReferenceRow[];
}

/** One hour of receipts: `hour` is the hour's start (epoch ms, UTC-aligned). */
export interface SavingsHour {
  readonly hour: number;
  readonly calls: number;
  readonly error_count: number;
  readonly input_tokens: number;
  readonly output_tokens: number;
}

/** Receipts per hour over the last `hours` hours (the current one included), every hour present. */
export interface SavingsTimeline {
  readonly since: number;
  readonly until: number;
  readonly hours: readonly SavingsHour[];
}

export interface SavingsOptions {
  readonly rates?: SavingsRates;
  readonly reference: SavingsReference;
}

const HOUR_MS = 3_600_000;
/** Failure reasons listed per row; the rest are in the counts. */
const MAX_REASONS = 10;
const LIVE_NOTE = 'Recorded mcp_metrics receipts for the requested window.';
const TOTAL = '__total__';
const UNKNOWN = 'unknown';

export class SavingsService implements SavingsBackend {
  readonly #ctx: DomainContext;
  readonly #options: SavingsOptions;

  constructor(ctx: DomainContext, options: SavingsOptions) {
    this.#ctx = ctx;
    this.#options = options;
  }

  /** Receipts per hour over the last `hours` hours (see savingsTimeline). */
  timeline(hours: number): Promise<SavingsTimeline> {
    return savingsTimeline(this.#ctx, hours);
  }

  async report(args: SavingsReportInput): Promise<SavingsReport> {
    const until = this.#ctx.clock.now();
    const since = args.since_ms ?? until - Math.round(args.hours * HOUR_MS);
    const hours = args.since_ms === undefined ? args.hours : round(Math.max(0, until - since) / HOUR_MS, 2);
    const window = { since, until, ...(args.operation ? { operation: args.operation } : {}) };
    const inRate = args.input_usd_per_1m ?? this.#options.rates?.input;
    const outRate = args.output_usd_per_1m ?? this.#options.rates?.output;
    const price = { input: inRate ?? 0, output: outRate ?? 0 };

    const totals = await receiptTotals(this.#ctx.store, window);
    const reasons = await receiptErrorReasons(this.#ctx.store, window);
    const operations = totals.map((t) =>
      row(
        t,
        reasons.filter((r) => r.operation === t.operation),
        price,
      ),
    );
    const report = {
      live: {
        note: LIVE_NOTE,
        window: { since, until, hours },
        cost_basis: {
          input_usd_per_1m_tokens: price.input,
          output_usd_per_1m_tokens: price.output,
          configured: inRate !== undefined || outRate !== undefined,
        },
        totals: row(sumTotals(totals), reasons, price),
        operations,
      },
      reference: reference(this.#options.reference),
    };
    const rows = operations.length + report.reference.rows.length;
    return withBudget(report, { available: rows, returned: rows, hydrate_with: 'savings_report' }, this.#ctx.tokens);
  }
}

/**
 * Receipts summed per hour (in SQL, over the ts index) for the `hours` hours ending with
 * the current one; hours without a call are present with zeros, so a chart's x axis is
 * time itself. `hours` is clamped to 1..MAX_SAVINGS_HOURS.
 */
export async function savingsTimeline(
  ctx: Pick<DomainContext, 'store' | 'clock'>,
  hours: number,
): Promise<SavingsTimeline> {
  const count = Math.min(MAX_SAVINGS_HOURS, Math.max(1, Math.floor(hours)));
  const until = ctx.clock.now();
  const since = Math.floor(until / HOUR_MS) * HOUR_MS - (count - 1) * HOUR_MS;
  const byHour = new Map((await receiptsByHour(ctx.store, { since, until })).map((h) => [h.hour, h]));
  return {
    since,
    until,
    hours: Array.from({ length: count }, (_, i) => {
      const hour = since + i * HOUR_MS;
      const h = byHour.get(hour);
      return {
        hour,
        calls: h?.calls ?? 0,
        error_count: h?.errorCount ?? 0,
        input_tokens: h?.inputTokens ?? 0,
        output_tokens: h?.outputTokens ?? 0,
      };
    }),
  };
}

function row(t: ReceiptTotals, reasons: readonly ReceiptErrorReason[], price: { input: number; output: number }) {
  const cost = (t.inputTokens * price.input + t.outputTokens * price.output) / 1_000_000;
  const per = (n: number) => (t.calls === 0 ? 0 : n / t.calls);
  const result: SavingsOperationRow = {
    operation: t.operation,
    calls: t.calls,
    ok_count: t.okCount,
    error_count: t.calls - t.okCount,
    error_reasons: mergeReasons(reasons),
    input_tokens: t.inputTokens,
    output_tokens: t.outputTokens,
    total_tokens: t.inputTokens + t.outputTokens,
    total_cost_usd: round(cost, 6),
    avg_cost_usd: round(per(cost), 6),
    avg_input_tokens: Math.round(per(t.inputTokens)),
    avg_output_tokens: Math.round(per(t.outputTokens)),
    total_duration_ms: round(t.totalDurationMs, 2),
    avg_duration_ms: round(per(t.totalDurationMs), 2),
    last_ts: t.calls === 0 ? null : t.lastTs,
  };
  return result;
}

function sumTotals(rows: readonly ReceiptTotals[]): ReceiptTotals {
  return rows.reduce<ReceiptTotals>(
    (sum, r) => ({
      operation: TOTAL,
      calls: sum.calls + r.calls,
      okCount: sum.okCount + r.okCount,
      inputTokens: sum.inputTokens + r.inputTokens,
      outputTokens: sum.outputTokens + r.outputTokens,
      totalDurationMs: sum.totalDurationMs + r.totalDurationMs,
      lastTs: Math.max(sum.lastTs, r.lastTs),
    }),
    { operation: TOTAL, calls: 0, okCount: 0, inputTokens: 0, outputTokens: 0, totalDurationMs: 0, lastTs: 0 },
  );
}

/** One entry per (code, message) across operations, most frequent first, capped. */
function mergeReasons(reasons: readonly ReceiptErrorReason[]): SavingsErrorReason[] {
  const merged = new Map<string, SavingsErrorReason>();
  for (const r of reasons) {
    const code = r.errorCode ?? UNKNOWN;
    const message = r.errorMessage ?? UNKNOWN;
    const key = `${code}\u0000${message}`;
    const prior = merged.get(key);
    merged.set(
      key,
      prior
        ? { ...prior, count: prior.count + r.count, last_ts: Math.max(prior.last_ts, r.lastTs) }
        : { error_code: code, error_message: message, count: r.count, last_ts: r.lastTs },
    );
  }
  return [...merged.values()].sort((a, b) => b.count - a.count || b.last_ts - a.last_ts).slice(0, MAX_REASONS);
}

function reference(model: SavingsReference): SavingsReport['reference'] {
  const rows = model.rows.map((r) => ({ ...r, savings_pct: pct(r.baseline_tokens, r.colony_tokens) }));
  const baseline = model.rows.reduce((n, r) => n + r.baseline_tokens * r.frequency_per_session, 0);
  const colony = model.rows.reduce((n, r) => n + r.colony_tokens * r.frequency_per_session, 0);
  return {
    kind: 'static_per_session_model',
    note: model.note,
    rows,
    totals: {
      baseline_tokens: Math.round(baseline),
      colony_tokens: Math.round(colony),
      savings_pct: pct(baseline, colony),
    },
  };
}

const pct = (baseline: number, colony: number) => (baseline <= 0 ? 0 : Math.round((1 - colony / baseline) * 100));

function round(n: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(n * f) / f;
}

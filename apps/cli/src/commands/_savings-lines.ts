/**
 * The lines `colony gain` prints for a savings_report: the live window's receipts per
 * operation (tokens, average time, cost when prices are set, failure reasons), then the
 * static with/without-colony reference model.
 */
import type { SavingsOperationRow, SavingsReport } from '@swarm/tools';
import { columns, iso, oneLine } from '../_format';

const int = (n: number) => n.toLocaleString('en-US');
const usd = (n: number) => `$${n.toFixed(n !== 0 && n < 0.01 ? 6 : 4)}`;

function liveRow(r: SavingsOperationRow, priced: boolean): string[] {
  return [
    r.operation,
    int(r.calls),
    r.error_count === 0 ? '0' : int(r.error_count),
    int(r.input_tokens),
    int(r.output_tokens),
    `${r.avg_duration_ms} ms`,
    priced ? usd(r.total_cost_usd) : '-',
  ];
}

/** The report as aligned text lines. */
export function savingsLines(report: SavingsReport): string[] {
  const { live, reference } = report;
  const priced = live.cost_basis.configured;
  const lines = [
    `live: ${iso(live.window.since)} .. ${iso(live.window.until)} (${live.window.hours} h)` +
      (priced
        ? `, at $${live.cost_basis.input_usd_per_1m_tokens} in / $${live.cost_basis.output_usd_per_1m_tokens} out per 1M tokens`
        : ', no prices set (--input-usd-per-1m, --output-usd-per-1m or COLONY_MCP_*_USD_PER_1M)'),
  ];
  if (live.operations.length === 0) lines.push('  no tool calls in this window');
  else {
    lines.push(
      ...columns([
        ['operation', 'calls', 'errors', 'tokens in', 'tokens out', 'avg time', 'cost'],
        ...live.operations.map((r) => liveRow(r, priced)),
        liveRow({ ...live.totals, operation: 'total' }, priced),
      ]).map((l) => `  ${l}`),
    );
    for (const reason of live.totals.error_reasons) {
      lines.push(`  error ${reason.error_code} x${reason.count}: ${oneLine(reason.error_message).slice(0, 100)}`);
    }
  }
  lines.push('', `reference (static model, per session; not from the live window):`);
  lines.push(
    ...columns([
      ['loop', 'per session', 'without', 'with colony', 'saved'],
      ...reference.rows.map((r) => [
        r.operation,
        String(r.frequency_per_session),
        int(r.baseline_tokens),
        int(r.colony_tokens),
        `${r.savings_pct}%`,
      ]),
      [
        'total',
        '',
        int(reference.totals.baseline_tokens),
        int(reference.totals.colony_tokens),
        `${reference.totals.savings_pct}%`,
      ],
    ]).map((l) => `  ${l}`),
  );
  return lines;
}

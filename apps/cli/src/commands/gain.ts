/**
 * `colony gain`: the `savings_report` tool as a table: live receipts per operation
 * over a window (tokens, cost at the given rates, failures), then the static
 * with/without-colony reference model.
 */
import type { SavingsOperationRow, SavingsReport } from '@swarm/tools';
import { defineCommand } from 'citty';
import { jsonArg, parseWholeNumber, usageError } from '../_args';
import { callTool, defined, storeArgs, withColony } from '../_colony';
import { columns, iso, oneLine } from '../_format';
import { printJson, printLines } from '../_output';

function parsePrice(raw: string | undefined, label: string): number | undefined {
  if (raw === undefined) return undefined;
  const value = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(value) || value < 0) {
    throw usageError(`${label} must be a price in USD (a number >= 0), got "${raw}"`);
  }
  return value;
}

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

export default defineCommand({
  meta: {
    name: 'gain',
    description: 'Token receipts of tool calls over a window, and the with/without-colony model (savings_report).',
  },
  args: {
    hours: { type: 'string', description: 'Live window in hours (default 24, max 720)', valueHint: 'n' },
    'since-ms': { type: 'string', description: 'Window start, epoch ms (overrides --hours)', valueHint: 'ms' },
    operation: { type: 'string', description: "Only this tool's receipts", valueHint: 'tool' },
    'input-usd-per-1m': { type: 'string', description: 'USD per 1M input tokens', valueHint: 'usd' },
    'output-usd-per-1m': { type: 'string', description: 'USD per 1M output tokens', valueHint: 'usd' },
    ...jsonArg,
    ...storeArgs,
  },
  async run({ args }) {
    const input = defined({
      hours: parseWholeNumber(args.hours, '--hours'),
      since_ms: parseWholeNumber(args['since-ms'], '--since-ms'),
      operation: args.operation,
      input_usd_per_1m: parsePrice(args['input-usd-per-1m'], '--input-usd-per-1m'),
      output_usd_per_1m: parsePrice(args['output-usd-per-1m'], '--output-usd-per-1m'),
    });
    const report = await withColony(args, (colony) => callTool<SavingsReport>(colony, 'savings_report', input));
    if (args.json) return printJson(report);
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
    printLines(lines);
  },
});

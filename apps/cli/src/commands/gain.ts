/**
 * `colony gain`: the `savings_report` tool as a table: live receipts per operation
 * over a window (tokens, cost at the given rates, failures), then the static
 * with/without-colony reference model (rendered by _savings-lines.ts).
 */
import type { SavingsReport } from '@swarm/tools';
import { defineCommand } from 'citty';
import { jsonArg, parseWholeNumber, usageError } from '../_args';
import { callTool, defined, storeArgs, withExistingColony } from '../_colony';
import { printJson, printLines } from '../_output';
import { savingsLines } from './_savings-lines';

function parsePrice(raw: string | undefined, label: string): number | undefined {
  if (raw === undefined) return undefined;
  const value = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(value) || value < 0) {
    throw usageError(`${label} must be a price in USD (a number >= 0), got "${raw}"`);
  }
  return value;
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
    const report = await withExistingColony(args, (colony) => callTool<SavingsReport>(colony, 'savings_report', input));
    if (args.json) return printJson(report);
    printLines(savingsLines(report));
  },
});

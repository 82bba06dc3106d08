/**
 * @module tools/savings
 * What colony costs and saves in tokens: the live receipts of tool calls (mcp_metrics)
 * over a window, priced at caller-given rates, beside a static reference model of
 * common coordination loops with and without colony.
 */
import { z } from 'zod';
import { defineTool } from '../define-tool';
import type { BudgetInfo } from '../schemas';

/** The longest live window, in hours (30 days). */
export const MAX_SAVINGS_HOURS = 720;
export const DEFAULT_SAVINGS_HOURS = 24;

const usdPer1m = z.number().min(0).max(100_000);

export const SavingsReportInput = z.strictObject({
  since_ms: z.int().min(0).optional(),
  hours: z.number().positive().max(MAX_SAVINGS_HOURS).default(DEFAULT_SAVINGS_HOURS),
  operation: z.string().min(1).max(100).optional(),
  input_usd_per_1m: usdPer1m.optional(),
  output_usd_per_1m: usdPer1m.optional(),
});
export type SavingsReportInput = z.output<typeof SavingsReportInput>;

export interface SavingsErrorReason {
  error_code: string;
  error_message: string;
  count: number;
  last_ts: number;
}

export interface SavingsOperationRow {
  operation: string;
  calls: number;
  ok_count: number;
  error_count: number;
  error_reasons: SavingsErrorReason[];
  input_tokens: number;
  output_tokens: number;
  total_tokens: number;
  total_cost_usd: number;
  avg_cost_usd: number;
  avg_input_tokens: number;
  avg_output_tokens: number;
  total_duration_ms: number;
  avg_duration_ms: number;
  last_ts: number | null;
}

export interface SavingsReferenceRow {
  operation: string;
  frequency_per_session: number;
  baseline_tokens: number;
  colony_tokens: number;
  savings_pct: number;
  rationale: string;
}

export interface SavingsReport {
  live: {
    note: string;
    window: { since: number; until: number; hours: number };
    cost_basis: { input_usd_per_1m_tokens: number; output_usd_per_1m_tokens: number; configured: boolean };
    totals: SavingsOperationRow;
    operations: SavingsOperationRow[];
  };
  reference: {
    kind: 'static_per_session_model';
    note: string;
    rows: SavingsReferenceRow[];
    totals: { baseline_tokens: number; colony_tokens: number; savings_pct: number };
  };
  budget: BudgetInfo;
}

export interface SavingsBackend {
  report(args: SavingsReportInput): Promise<SavingsReport>;
}

/** The part of ColonyBackend these tools call (backend.ts composes the whole). */
type Host = { readonly savings: SavingsBackend };

export const savingsReport = defineTool({
  name: 'savings_report',
  title: 'Savings report',
  description: 'Token and cost receipts over a window.',
  input: SavingsReportInput,
  mutates: false,
  docs: {
    returns:
      '{ live: { note, window: { since, until, hours }, cost_basis: { input_usd_per_1m_tokens, ' +
      'output_usd_per_1m_tokens, configured }, totals, operations: [ { operation, calls, ok_count, ' +
      'error_count, error_reasons: [ { error_code, error_message, count, last_ts } ], input_tokens, ' +
      'output_tokens, total_tokens, total_cost_usd, avg_cost_usd, avg_input_tokens, avg_output_tokens, ' +
      'total_duration_ms, avg_duration_ms, last_ts } ] }, reference: { kind: ' +
      '"static_per_session_model", note, rows: [ { operation, frequency_per_session, baseline_tokens, ' +
      'colony_tokens, savings_pct, rationale } ], totals: { baseline_tokens, colony_tokens, ' +
      'savings_pct } }, budget }. totals has operation "__total__".',
    notes:
      `The live part sums the mcp_metrics receipts (one per tool call, tokens counted with the cl100k ` +
      `tokenizer) from since_ms (takes precedence) or the last \`hours\` (default ` +
      `${DEFAULT_SAVINGS_HOURS}, at most ${MAX_SAVINGS_HOURS}) up to now; \`operation\` keeps one ` +
      `tool's rows. Cost = tokens x USD-per-1M rates, from the arguments or else ` +
      `COLONY_MCP_INPUT_USD_PER_1M / COLONY_MCP_OUTPUT_USD_PER_1M; with neither, cost_basis.configured ` +
      `is false and costs are 0. Failure rows recorded before error messages were kept report ` +
      `"unknown". The reference part is a static per-session model (not derived from the live window). ` +
      `\`colony gain\` prints the same payload. budget counts the operation and reference rows; ` +
      `nothing is left out.`,
    example: { hours: 24, operation: 'search', input_usd_per_1m: 3, output_usd_per_1m: 15 },
  },
  handler: (args, b: Host) => b.savings.report(args),
});

export const savingsTools = [savingsReport];

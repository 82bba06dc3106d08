/**
 * @module viewer/savings-panel
 * Savings over time: the receipts of tool calls per hour (the chart), the window's
 * totals and busiest tools from savings_report, and its static with/without-colony
 * reference model. Hours come from the one query no tool gives (receipts by hour).
 */
import type { SavingsHour, SavingsTimeline } from '@swarm/core';
import { DEFAULT_SAVINGS_HOURS, type SavingsReport } from '@swarm/tools';
import type { ReadTool } from './_reader';
import type { ViewerScope } from './_scope';

/** Tools listed under the chart, busiest first. */
const TOP_OPERATIONS = 8;

export interface SavingsPanel {
  readonly window: { readonly since: number; readonly until: number; readonly hours: number };
  readonly hours: readonly SavingsHour[];
  readonly totals: {
    readonly calls: number;
    readonly error_count: number;
    readonly input_tokens: number;
    readonly output_tokens: number;
    readonly total_cost_usd: number;
    readonly cost_configured: boolean;
  };
  readonly operations: readonly {
    readonly operation: string;
    readonly calls: number;
    readonly error_count: number;
    readonly total_tokens: number;
  }[];
  readonly reference: {
    readonly baseline_tokens: number;
    readonly colony_tokens: number;
    readonly savings_pct: number;
    readonly rows: readonly { readonly operation: string; readonly savings_pct: number }[];
  };
}

export async function savingsPanel(
  read: ReadTool,
  timeline: (hours: number) => SavingsTimeline | Promise<SavingsTimeline>,
  scope: ViewerScope,
): Promise<SavingsPanel> {
  const hours = scope.savingsHours ?? DEFAULT_SAVINGS_HOURS;
  const series = await timeline(hours);
  const report = await read<SavingsReport>('savings_report', { since_ms: series.since });
  const { totals } = report.live;
  return {
    window: { since: series.since, until: series.until, hours: series.hours.length },
    hours: series.hours,
    totals: {
      calls: totals.calls,
      error_count: totals.error_count,
      input_tokens: totals.input_tokens,
      output_tokens: totals.output_tokens,
      total_cost_usd: totals.total_cost_usd,
      cost_configured: report.live.cost_basis.configured,
    },
    operations: report.live.operations.slice(0, TOP_OPERATIONS).map((o) => ({
      operation: o.operation,
      calls: o.calls,
      error_count: o.error_count,
      total_tokens: o.total_tokens,
    })),
    reference: {
      ...report.reference.totals,
      rows: report.reference.rows.map((r) => ({ operation: r.operation, savings_pct: r.savings_pct })),
    },
  };
}

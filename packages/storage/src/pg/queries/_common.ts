/** Small pieces the PostgreSQL query modules share. */
import type { PlanSubtask } from '../../plans';
import { pgClient } from '../store/_handle';

/** How many rows an UPDATE or DELETE changed (SQLite's `.run().changes`). */
export const changed = (result: { rowCount: number | null }): number => result.rowCount ?? 0;

/** A bigint / numeric result of a raw query (a string from node-postgres) as a number; null stays null. */
export const num = <T>(v: T): number | (T & null) => (v === null ? (v as T & null) : Number(v));

/** The row with these keys read as numbers (raw queries return bigint columns as strings). */
export function numbered<R>(row: Record<string, unknown>, keys: readonly string[]): R {
  const out: Record<string, unknown> = { ...row };
  for (const k of keys) out[k] = num(out[k]);
  return out as R;
}

/** Runs a raw statement (`$n`) on the caller's transaction or the pool; how many rows it changed. */
export async function execute(store: object, text: string, values: unknown[] = []): Promise<number> {
  // node-postgres answers `rowCount` too; PgQueryable (the migrator's view) names only `rows`.
  const result = (await pgClient(store).query(text, values)) as { rows: unknown[]; rowCount?: number | null };
  return result.rowCount ?? 0;
}

/** A JSON-mode column's value as stored on PostgreSQL (text, as SQLite writes it). */
export const toJson = (value: unknown): string | null => (value == null ? null : JSON.stringify(value));

/** A JSON-mode column's stored text as the value SQLite's drizzle returns. */
export const fromJson = <T>(text: unknown): T => (text == null ? null : JSON.parse(String(text))) as T;

/** A plan sub-task row with its JSON columns (text here) parsed, as SQLite's drizzle returns it. */
export const subtaskOf = (row: unknown): PlanSubtask => {
  const r = row as PlanSubtask;
  return { ...r, fileScope: fromJson(r.fileScope), dependsOn: fromJson(r.dependsOn) };
};

/** Small pieces the PostgreSQL query modules share. */
import type { ClaimState } from '../../claims';
import { pgClient } from '../store/_handle';

/** The states of a claim someone holds (as `LIVE` in src/claims.ts). */
export const LIVE: ClaimState[] = ['active', 'handoff_pending'];

/** How many rows an UPDATE or DELETE changed (SQLite's `.run().changes`). */
export const changed = (result: { rowCount: number | null }): number => result.rowCount ?? 0;

/** Runs a raw statement (`$n`) on the caller's transaction or the pool; how many rows it changed. */
export async function execute(store: object, text: string, values: unknown[] = []): Promise<number> {
  // node-postgres answers `rowCount` too; PgQueryable (the migrator's view) names only `rows`.
  const result = (await pgClient(store).query(text, values)) as { rows: unknown[]; rowCount?: number | null };
  return result.rowCount ?? 0;
}

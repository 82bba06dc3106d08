/** Small pieces the PostgreSQL query modules share. */
import type { ClaimState } from '../../claims';

/** The states of a claim someone holds (as `LIVE` in src/claims.ts). */
export const LIVE: ClaimState[] = ['active', 'handoff_pending'];

/** How many rows an UPDATE or DELETE changed (SQLite's `.run().changes`). */
export const changed = (result: { rowCount: number | null }): number => result.rowCount ?? 0;

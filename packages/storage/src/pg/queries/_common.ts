/** Small pieces the PostgreSQL query modules share. */
import type { ClaimState } from '../../claims';

/** The states of a claim someone holds (as `LIVE` in src/claims.ts). */
export const LIVE: ClaimState[] = ['active', 'handoff_pending'];

/** How many rows an UPDATE or DELETE changed (SQLite's `.run().changes`). */
export const changed = (result: { rowCount: number | null }): number => result.rowCount ?? 0;

/** A JSON-mode column's value as stored on PostgreSQL (text, as SQLite writes it). */
export const toJson = (value: unknown): string | null => (value == null ? null : JSON.stringify(value));

/** A JSON-mode column's stored text as the value SQLite's drizzle returns. */
export const fromJson = <T>(text: unknown): T => (text == null ? null : JSON.parse(String(text))) as T;

/**
 * @module where/sessions
 * The row values of `upsertSession`, shared by `src/sessions.ts` (SQLite) and
 * `src/pg/queries/sessions.ts` (PostgreSQL, which writes `metadata` as JSON text):
 * the new row, and the merge that fills in ide/agent/cwd when first known and never
 * blanks them later.
 */
import type { JsonObject } from '../schema';

/** A session as given to `upsertSession`. */
export interface SessionInput {
  readonly id: string;
  readonly ide?: string | null;
  readonly agent?: string | null;
  readonly cwd?: string | null;
  readonly metadata?: JsonObject | null;
}

/** The values of a session first seen `now`. */
export const newSessionRow = (input: SessionInput, now: number) => ({
  id: input.id,
  ide: input.ide ?? 'unknown',
  agent: input.agent ?? null,
  cwd: input.cwd ?? null,
  startedAt: now,
  lastHeartbeatAt: now,
  metadata: input.metadata ?? null,
});

/** The `set` refreshing a known session: heartbeat now (never back), known fields kept unless given. */
export const mergedSession = (
  existing: {
    readonly ide: string;
    readonly agent: string | null;
    readonly cwd: string | null;
    readonly lastHeartbeatAt: number;
    readonly metadata: JsonObject | null;
  },
  input: SessionInput,
  now: number,
) => ({
  ide: input.ide && input.ide !== 'unknown' ? input.ide : existing.ide,
  agent: input.agent ?? existing.agent,
  cwd: input.cwd ?? existing.cwd,
  lastHeartbeatAt: Math.max(now, existing.lastHeartbeatAt),
  endedAt: null,
  metadata: input.metadata ? { ...existing.metadata, ...input.metadata } : existing.metadata,
});

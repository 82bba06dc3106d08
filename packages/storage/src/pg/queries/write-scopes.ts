/**
 * @module pg/queries/write-scopes
 * `lockWriteScope` of `src/write-scopes.ts` on PostgreSQL: a transaction-level advisory
 * lock on the scope's name, held until the caller's write commits or rolls back, and
 * waited for within the write's `lock_timeout` (a wait spent is STORE_BUSY).
 */
import { txOf } from '../store/_context';
import type { PgStore } from '../store/pg-store';

export async function lockWriteScope(store: PgStore, scope: string): Promise<void> {
  const tx = txOf(store);
  // Outside a write the lock would end with the statement: a caller's bug, not a race to lose silently.
  if (!tx || tx.readOnly) throw new Error(`lockWriteScope(${scope}) runs inside a write of ${store.location}`);
  await tx.client.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`write-scope:${scope}`]);
}

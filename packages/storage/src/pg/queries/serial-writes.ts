/**
 * @module pg/queries/serial-writes
 * `serializeWrites` of `src/serial-writes.ts` on PostgreSQL, where writers run side by
 * side (READ COMMITTED): a transaction-level advisory lock named by the topic, held
 * until the caller's write commits or rolls back. Its wait is bounded by the write's
 * `lock_timeout` (a timeout rolls back and retries the whole write, as any lock wait).
 */
import type { SerialWriteTopic } from '../../serial-writes';
import { txOf } from '../store/_context';
import type { PgStore } from '../store/pg-store';

export async function serializeWrites(store: PgStore, topic: SerialWriteTopic): Promise<void> {
  const tx = txOf(store);
  // Outside a write the lock would end with the statement: a caller's bug, not a race to lose silently.
  if (!tx || tx.readOnly) throw new Error(`serializeWrites(${topic}) runs inside a write of ${store.location}`);
  await tx.client.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`colony:${topic}`]);
}

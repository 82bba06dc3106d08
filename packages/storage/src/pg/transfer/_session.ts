/**
 * @module pg/transfer/session
 * One connection for an export or import: from a URL (opened, migrated, closed after)
 * or from an open PgDatabase (a client borrowed from its pool), plus the identity
 * columns of colony's tables, PostgreSQL's form of SQLite's AUTOINCREMENT counters.
 */
import type { PoolClient } from 'pg';
import { openPgDatabase, type PgDatabase } from '../open';

/** Runs `fn` on one client of `target`; closes what it opened. */
export async function withClient<T>(target: string | PgDatabase, fn: (client: PoolClient) => Promise<T>): Promise<T> {
  const database = typeof target === 'string' ? await openPgDatabase(target, { max: 1 }) : target;
  try {
    const client = await database.pool.connect();
    try {
      return await fn(client);
    } finally {
      client.release();
    }
  } finally {
    if (typeof target === 'string') await database.close();
  }
}

export interface Identity {
  readonly column: string;
  /** The sequence's qualified name, quoted as needed (pg_get_serial_sequence). */
  readonly sequence: string;
}

/** Identity columns by table, for the tables named. */
export async function identities(client: PoolClient, tables: ReadonlySet<string>): Promise<Map<string, Identity>> {
  const { rows } = await client.query<{ table_name: string; column_name: string; seq: string }>(
    `SELECT table_name, column_name, pg_get_serial_sequence(quote_ident(table_name), column_name) AS seq
     FROM information_schema.columns WHERE table_schema = current_schema() AND is_identity = 'YES'`,
  );
  return new Map(
    rows.filter((r) => tables.has(r.table_name)).map((r) => [r.table_name, { column: r.column_name, sequence: r.seq }]),
  );
}

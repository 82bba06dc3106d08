/**
 * @module transfer/level
 * What an export records beside the rows: the store's schema level (how many
 * migrations it has applied, as `_store-state.ts` counts versions) and SQLite's
 * AUTOINCREMENT counters of the exported tables.
 */
import type Database from 'better-sqlite3';

/** The number of migrations applied to this database. */
export function schemaLevel(sqlite: Database.Database): number {
  const row = sqlite.prepare('SELECT count(*) AS n FROM __drizzle_migrations').get() as { n: number };
  return Number(row.n);
}

/** AUTOINCREMENT counters by table, for the tables named; sorted by name. */
export function readSequences(sqlite: Database.Database, tables: ReadonlySet<string>): Record<string, number> {
  const rows = sqlite.prepare('SELECT name, seq FROM sqlite_sequence ORDER BY name').all() as Array<{
    name: string;
    seq: number;
  }>;
  return Object.fromEntries(rows.filter((r) => tables.has(r.name)).map((r) => [r.name, Number(r.seq)]));
}

/** Sets the AUTOINCREMENT counters (after the rows are in, which moved them to the highest id). */
export function writeSequences(sqlite: Database.Database, sequences: Readonly<Record<string, number>>): void {
  const update = sqlite.prepare('UPDATE sqlite_sequence SET seq = max(seq, ?) WHERE name = ?');
  const insert = sqlite.prepare('INSERT INTO sqlite_sequence (name, seq) SELECT ?, ? WHERE changes() = 0');
  for (const [name, seq] of Object.entries(sequences)) {
    update.run(seq, name);
    insert.run(name, seq);
  }
}

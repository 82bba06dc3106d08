/**
 * @module transfer/rebuild
 * The search indexes an export leaves out, because they are built from exported rows:
 * `observations_fts` (external content over observations.content: FTS5's 'rebuild',
 * which also leaves no row pending in `observations_fts_indexed`)
 * and `examples_fts` (each example's current foraged-pattern observations, its
 * first_pattern_id..last_pattern_id range, as the forager indexes them). Import
 * rebuilds both in its transaction. A virtual table missing from REBUILT_INDEXES
 * fails the coverage test, so a new index is not silently lost.
 */
import type Database from 'better-sqlite3';

/** The rows of examples_fts, as the forager indexes them (shared with the PostgreSQL import). */
export const EXAMPLES_FTS_ROWS = `SELECT o.id, o.content, e.example_name FROM examples e
  JOIN observations o ON o.id BETWEEN e.first_pattern_id AND e.last_pattern_id AND o.kind = 'foraged-pattern'
  ORDER BY o.id`;

export const REBUILT_INDEXES = ['observations_fts', 'examples_fts'] as const;

export function rebuildIndexes(sqlite: Database.Database): void {
  sqlite.prepare(`INSERT INTO observations_fts (observations_fts) VALUES ('rebuild')`).run();
  // 'rebuild' indexed every row: none is pending (src/_fts-batch.ts).
  sqlite
    .prepare(
      'UPDATE observations_fts_indexed SET through = (SELECT coalesce(max(id), 0) FROM observations) WHERE id = 1',
    )
    .run();
  sqlite.prepare('DELETE FROM examples_fts').run();
  sqlite.prepare(`INSERT INTO examples_fts (rowid, content, example_name) ${EXAMPLES_FTS_ROWS}`).run();
}

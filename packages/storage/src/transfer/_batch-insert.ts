/**
 * @module transfer/batch-insert
 * Rows of one table inserted in batches: one prepared multi-row INSERT for full
 * batches, one single-row INSERT for the rest, both prepared once per table.
 */
import type Database from 'better-sqlite3';
import { quoteName } from './_sql';
import type { SqlValue } from './values';

/** Bound parameters per statement kept well under SQLite's limit (32766). */
const MAX_PARAMS = 4_000;
const MAX_ROWS = 200;

export class BatchInsert {
  readonly #sqlite: Database.Database;
  readonly #table: string;
  readonly #columns: readonly string[];
  readonly #size: number;
  #pending: SqlValue[] = [];
  #full: Database.Statement | undefined;
  #one: Database.Statement | undefined;

  constructor(sqlite: Database.Database, table: string, columns: readonly string[]) {
    this.#sqlite = sqlite;
    this.#table = table;
    this.#columns = columns;
    this.#size = Math.max(1, Math.min(MAX_ROWS, Math.floor(MAX_PARAMS / Math.max(1, columns.length))));
  }

  add(values: readonly SqlValue[]): void {
    this.#pending.push(...values);
    if (this.#pending.length === this.#size * this.#columns.length) {
      this.#full ??= this.#prepare(this.#size);
      this.#full.run(this.#pending);
      this.#pending = [];
    }
  }

  /** Inserts what is left. */
  flush(): void {
    const width = this.#columns.length;
    this.#one ??= this.#prepare(1);
    for (let at = 0; at < this.#pending.length; at += width) this.#one.run(this.#pending.slice(at, at + width));
    this.#pending = [];
  }

  #prepare(rows: number): Database.Statement {
    const tuple = `(${this.#columns.map(() => '?').join(', ')})`;
    const names = this.#columns.map(quoteName).join(', ');
    const values = Array.from({ length: rows }, () => tuple).join(', ');
    return this.#sqlite.prepare(`INSERT INTO ${quoteName(this.#table)} (${names}) VALUES ${values}`);
  }
}

/**
 * @module pg/transfer/insert
 * Rows of one table inserted into PostgreSQL in multi-row INSERTs of up to 500 rows
 * (and under PostgreSQL's 65535 bound parameters).
 */
import type { PoolClient } from 'pg';
import { quoteName } from '../../transfer/_sql';
import type { SqlValue } from '../../transfer/values';
import { toParam } from './_values';

const MAX_PARAMS = 60_000;
const MAX_ROWS = 500;

export class PgBatchInsert {
  readonly #client: PoolClient;
  readonly #table: string;
  readonly #columns: readonly string[];
  readonly #size: number;
  #pending: unknown[][] = [];

  constructor(client: PoolClient, table: string, columns: readonly string[]) {
    this.#client = client;
    this.#table = table;
    this.#columns = columns;
    this.#size = Math.max(1, Math.min(MAX_ROWS, Math.floor(MAX_PARAMS / Math.max(1, columns.length))));
  }

  async add(values: readonly SqlValue[], line: number): Promise<void> {
    this.#pending.push(
      values.map((v, i) => toParam(v, () => ({ line, table: this.#table, column: this.#columns[i] }))),
    );
    if (this.#pending.length >= this.#size) await this.flush();
  }

  /** Inserts what is held. */
  async flush(): Promise<void> {
    if (this.#pending.length === 0) return;
    const rows = this.#pending;
    this.#pending = [];
    const width = this.#columns.length;
    const tuples = rows.map((_, r) => `(${this.#columns.map((_c, i) => `$${r * width + i + 1}`).join(', ')})`);
    const names = this.#columns.map(quoteName).join(', ');
    await this.#client.query(
      `INSERT INTO ${quoteName(this.#table)} (${names}) VALUES ${tuples.join(', ')}`,
      rows.flat(),
    );
  }
}

/**
 * @module pg/queries/vectors
 * Embedding vectors and per-task sums (`src/vectors.ts`) on PostgreSQL, as `bytea`
 * Float32 arrays in the platform's byte order. A task's sum row is made if missing (`ON
 * CONFLICT DO NOTHING`), then read `FOR UPDATE` before it is added to, so two writers
 * adding to one task, its first sum included, take turns instead of losing a sum.
 */
import type { NewVector, TaskVectorSum, UnembeddedRow } from '../../vectors';
import { pgClient } from '../store/_handle';
import type { PgStore } from '../store/pg-store';
import { numbered } from './_common';

const toBlob = (v: Float32Array): Buffer => Buffer.from(v.buffer, v.byteOffset, v.byteLength);

/** A copy, so the array is aligned whatever the Buffer's offset. */
function fromBlob(blob: Buffer): Float32Array {
  const out = new Float32Array(blob.byteLength / 4);
  new Uint8Array(out.buffer).set(blob);
  return out;
}

/** Rows with `afterId < id <= upToId` without a vector for `embedderId`, oldest first, at most `limit`. */
export async function observationsWithoutVector(
  store: PgStore,
  embedderId: string,
  afterId: number,
  upToId: number,
  limit: number,
): Promise<UnembeddedRow[]> {
  const { rows } = await pgClient(store).query(
    `SELECT o.id, o.task_id AS "taskId", o.content FROM observations o
     WHERE o.id > $1 AND o.id <= $2 AND NOT EXISTS (
       SELECT 1 FROM observation_vectors v WHERE v.observation_id = o.id AND v.embedder_id = $3)
     ORDER BY o.id LIMIT $4`,
    [afterId, upToId, embedderId, limit],
  );
  return rows.map((r) => numbered<UnembeddedRow>(r, ['id', 'taskId']));
}

/** The newest observation id (0 for an empty store). */
export async function maxObservationId(store: PgStore): Promise<number> {
  const { rows } = await pgClient(store).query('SELECT MAX(id) AS id FROM observations');
  return Number(rows[0]?.id ?? 0);
}

const INSERT_SQL = `INSERT INTO observation_vectors (observation_id, embedder_id, dims, vector) VALUES ($1, $2, $3, $4)
  ON CONFLICT (observation_id) DO UPDATE SET embedder_id = excluded.embedder_id, dims = excluded.dims,
    vector = excluded.vector WHERE observation_vectors.embedder_id <> excluded.embedder_id RETURNING observation_id`;

/** Writes vectors for `embedderId` and adds each new one to its task's sum, in one transaction; how many were written. */
export function insertVectors(
  store: PgStore,
  embedderId: string,
  dims: number,
  rows: readonly NewVector[],
  options: { readonly busyTimeoutMs?: number } = {},
): Promise<number> {
  void options; // SQLite's lock wait; PostgreSQL locks rows, not the database.
  if (rows.length === 0) return Promise.resolve(0);
  return store.write(async () => {
    const client = pgClient(store);
    const { rows: replaced } = await client.query(
      `SELECT DISTINCT embedder_id AS id FROM observation_vectors WHERE observation_id = ANY($1::bigint[]) AND embedder_id <> $2`,
      [rows.map((r) => r.observationId), embedderId],
    );
    for (const old of replaced) await client.query('DELETE FROM task_vectors WHERE embedder_id = $1', [old.id]);
    const sums = new Map<number, { sum: Float32Array; count: number }>();
    let written = 0;
    for (const row of rows) {
      if (row.vector.length !== dims) throw new Error(`vector of ${row.vector.length} dims, expected ${dims}`);
      const inserted = await client.query(INSERT_SQL, [row.observationId, embedderId, dims, toBlob(row.vector)]);
      if (inserted.rows.length === 0) continue;
      written++;
      if (row.taskId === null) continue;
      const entry = sums.get(row.taskId) ?? { sum: new Float32Array(dims), count: 0 };
      sums.set(row.taskId, entry);
      for (let i = 0; i < dims; i++) entry.sum[i] = (entry.sum[i] as number) + (row.vector[i] as number);
      entry.count++;
    }
    for (const [taskId, add] of sums) await addToTaskSum(store, taskId, embedderId, dims, add.sum, add.count);
    return written;
  });
}

async function addToTaskSum(
  store: PgStore,
  taskId: number,
  embedderId: string,
  dims: number,
  add: Float32Array,
  count: number,
): Promise<void> {
  const client = pgClient(store);
  // The row first (an empty sum), so the read below always has a row to lock: two
  // writers starting a task's first sum at once take turns instead of one losing its add.
  await client.query(
    `INSERT INTO task_vectors (task_id, embedder_id, dims, sum, count) VALUES ($1, $2, $3, $4, 0)
     ON CONFLICT (task_id, embedder_id) DO NOTHING`,
    [taskId, embedderId, dims, toBlob(new Float32Array(dims))],
  );
  const { rows } = await client.query(
    'SELECT dims, sum, count FROM task_vectors WHERE task_id = $1 AND embedder_id = $2 FOR UPDATE',
    [taskId, embedderId],
  );
  const prior = rows[0] as { dims: string; sum: Buffer; count: string } | undefined;
  const same = prior !== undefined && Number(prior.dims) === dims;
  if (same) {
    const sum = fromBlob(prior.sum);
    for (let i = 0; i < dims; i++) add[i] = (add[i] as number) + (sum[i] as number);
  }
  await client.query(
    `INSERT INTO task_vectors (task_id, embedder_id, dims, sum, count) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (task_id, embedder_id) DO UPDATE SET dims = excluded.dims, sum = excluded.sum, count = excluded.count`,
    [taskId, embedderId, dims, toBlob(add), count + (same ? Number(prior.count) : 0)],
  );
}

/** The vectors of these observations for `embedderId` (ids without one are absent). */
export async function vectorsOf(
  store: PgStore,
  embedderId: string,
  ids: readonly number[],
): Promise<Map<number, Float32Array>> {
  const out = new Map<number, Float32Array>();
  if (ids.length === 0) return out;
  const { rows } = await pgClient(store).query(
    'SELECT observation_id AS id, vector FROM observation_vectors WHERE embedder_id = $1 AND observation_id = ANY($2::bigint[])',
    [embedderId, [...ids]],
  );
  for (const row of rows) out.set(Number(row.id), fromBlob(row.vector as Buffer));
  return out;
}

/** Every task's vector sum for `embedderId`. */
export async function taskVectorSums(store: PgStore, embedderId: string): Promise<TaskVectorSum[]> {
  const { rows } = await pgClient(store).query(
    'SELECT task_id AS "taskId", sum, count FROM task_vectors WHERE embedder_id = $1 ORDER BY task_id',
    [embedderId],
  );
  return rows.map((r) => ({ taskId: Number(r.taskId), sum: fromBlob(r.sum as Buffer), count: Number(r.count) }));
}

/** How many observations have a vector for `embedderId`. */
export async function countVectors(store: PgStore, embedderId: string): Promise<number> {
  const { rows } = await pgClient(store).query('SELECT COUNT(*) AS n FROM observation_vectors WHERE embedder_id = $1', [
    embedderId,
  ]);
  return Number(rows[0]?.n ?? 0);
}

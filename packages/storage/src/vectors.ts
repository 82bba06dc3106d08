/**
 * @module vectors
 * Embedding vectors of observations (one per observation, from the current embedder)
 * and the per-task sums built from them (per embedder). Nothing here
 * runs on the observation insert path: the backfill reads rows without a vector for an
 * embedder (`observationsWithoutVector`) and writes theirs (`insertVectors`) in bounded
 * batches. Vectors are stored as Float32 arrays in the platform's byte order.
 */
import { type Store, statement } from './_store';

/** A row waiting for its vector: what the embedder reads. */
export interface UnembeddedRow {
  readonly id: number;
  readonly taskId: number | null;
  readonly content: string;
}

/**
 * Rows with `afterId < id <= upToId` that have no vector for `embedderId`, oldest first,
 * at most `limit`. The id window bounds the work of one call however many rows already
 * have vectors.
 */
export function observationsWithoutVector(
  store: Store,
  embedderId: string,
  afterId: number,
  upToId: number,
  limit: number,
): UnembeddedRow[] {
  return statement(
    store,
    `SELECT o.id, o.task_id AS taskId, o.content FROM observations o
     WHERE o.id > ? AND o.id <= ? AND NOT EXISTS (
       SELECT 1 FROM observation_vectors v WHERE v.observation_id = o.id AND v.embedder_id = ?)
     ORDER BY o.id LIMIT ?`,
  ).all(afterId, upToId, embedderId, limit) as UnembeddedRow[];
}

/** The newest observation id (0 for an empty store). */
export function maxObservationId(store: Store): number {
  const row = statement(store, 'SELECT MAX(id) AS id FROM observations').get() as { id: number | null };
  return row.id ?? 0;
}

export interface NewVector {
  readonly observationId: number;
  readonly taskId: number | null;
  readonly vector: Float32Array;
}

/**
 * Writes vectors for `embedderId` and adds each new one to its task's sum, in one write
 * transaction. A vector from another embedder is replaced (and that embedder's task sums
 * dropped); a row that already has one from this embedder (another process got there
 * first) is skipped and not added twice.
 * Returns how many were written.
 */
export function insertVectors(
  store: Store,
  embedderId: string,
  dims: number,
  rows: readonly NewVector[],
  /** A shorter wait for another writer's lock (background backfill): STORE_BUSY past it. */
  options: { readonly busyTimeoutMs?: number } = {},
): Promise<number> {
  if (rows.length === 0) return Promise.resolve(0);
  return store.write(() => {
    const insert = statement(
      store,
      `INSERT INTO observation_vectors (observation_id, embedder_id, dims, vector) VALUES (?, ?, ?, ?)
       ON CONFLICT (observation_id) DO UPDATE SET embedder_id = excluded.embedder_id, dims = excluded.dims,
         vector = excluded.vector WHERE embedder_id != excluded.embedder_id`,
    );
    // Vectors of another embedder are about to be replaced: that embedder's task sums
    // would no longer match its vectors, so they go (rebuilt if it ever comes back).
    const replaced = statement(
      store,
      `SELECT DISTINCT embedder_id AS id FROM observation_vectors
       WHERE observation_id IN (SELECT value FROM json_each(?)) AND embedder_id != ?`,
    ).all(JSON.stringify(rows.map((r) => r.observationId)), embedderId) as Array<{ id: string }>;
    for (const old of replaced) statement(store, 'DELETE FROM task_vectors WHERE embedder_id = ?').run(old.id);
    const sums = new Map<number, { sum: Float32Array; count: number }>();
    let written = 0;
    for (const row of rows) {
      if (row.vector.length !== dims) throw new Error(`vector of ${row.vector.length} dims, expected ${dims}`);
      if (insert.run(row.observationId, embedderId, dims, toBlob(row.vector)).changes === 0) continue;
      written++;
      if (row.taskId === null) continue;
      let entry = sums.get(row.taskId);
      if (!entry) {
        entry = { sum: new Float32Array(dims), count: 0 };
        sums.set(row.taskId, entry);
      }
      for (let i = 0; i < dims; i++) entry.sum[i] = (entry.sum[i] as number) + (row.vector[i] as number);
      entry.count++;
    }
    for (const [taskId, add] of sums) addToTaskSum(store, taskId, embedderId, dims, add.sum, add.count);
    return written;
  }, options);
}

function addToTaskSum(
  store: Store,
  taskId: number,
  embedderId: string,
  dims: number,
  add: Float32Array,
  count: number,
): void {
  const prior = statement(store, 'SELECT dims, sum, count FROM task_vectors WHERE task_id = ? AND embedder_id = ?').get(
    taskId,
    embedderId,
  ) as { dims: number; sum: Buffer; count: number } | undefined;
  if (prior && prior.dims === dims) {
    const sum = fromBlob(prior.sum);
    for (let i = 0; i < dims; i++) add[i] = (add[i] as number) + (sum[i] as number);
  }
  statement(
    store,
    `INSERT INTO task_vectors (task_id, embedder_id, dims, sum, count) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (task_id, embedder_id) DO UPDATE SET dims = excluded.dims, sum = excluded.sum, count = excluded.count`,
  ).run(taskId, embedderId, dims, toBlob(add), count + (prior && prior.dims === dims ? prior.count : 0));
}

/** The vectors of these observations for `embedderId` (ids without one are absent). */
export function vectorsOf(store: Store, embedderId: string, ids: readonly number[]): Map<number, Float32Array> {
  const out = new Map<number, Float32Array>();
  if (ids.length === 0) return out;
  const rows = statement(
    store,
    `SELECT observation_id AS id, vector FROM observation_vectors
     WHERE embedder_id = ? AND observation_id IN (SELECT value FROM json_each(?))`,
  ).all(embedderId, JSON.stringify(ids)) as Array<{ id: number; vector: Buffer }>;
  for (const row of rows) out.set(row.id, fromBlob(row.vector));
  return out;
}

export interface TaskVectorSum {
  readonly taskId: number;
  readonly sum: Float32Array;
  readonly count: number;
}

/** Every task's vector sum for `embedderId`. */
export function taskVectorSums(store: Store, embedderId: string): TaskVectorSum[] {
  const rows = statement(
    store,
    'SELECT task_id AS taskId, sum, count FROM task_vectors WHERE embedder_id = ? ORDER BY task_id',
  ).all(embedderId) as Array<{ taskId: number; sum: Buffer; count: number }>;
  return rows.map((r) => ({ taskId: r.taskId, sum: fromBlob(r.sum), count: r.count }));
}

/** How many observations have a vector for `embedderId`. */
export function countVectors(store: Store, embedderId: string): number {
  const row = statement(store, 'SELECT COUNT(*) AS n FROM observation_vectors WHERE embedder_id = ?').get(
    embedderId,
  ) as { n: number };
  return row.n;
}

function toBlob(vector: Float32Array): Buffer {
  return Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength);
}

/** A copy, so the array is aligned whatever the Buffer's offset. */
function fromBlob(blob: Buffer): Float32Array {
  const out = new Float32Array(blob.byteLength / 4);
  new Uint8Array(out.buffer).set(blob);
  return out;
}

/**
 * @module memory/vector-index
 * The vectors of observations: embedding queries, reading stored vectors, and the
 * backfill that fills them in. Embedding never happens when an observation is written
 * (inserts stay at full speed); `step()` embeds the next bounded batch of rows that have
 * no vector for the current embedder, and `backfill()` runs steps until none is left.
 *
 * An embedder that cannot load or throws turns vectors off for this process with one
 * warning: search then ranks by keywords alone and suggestions say why they are empty.
 * Nothing fails because of it.
 */
import {
  type ColonyStore,
  countObservations,
  countVectors,
  insertVectors,
  maxObservationId,
  observationsWithoutVector,
  type TaskVectorSum,
  taskVectorSums,
  vectorsOf,
} from '@swarm/storage';
import type { Embedder } from './embedder';

/** Rows embedded per step (one write transaction). */
export const BACKFILL_BATCH = 64;
/** Ids one step scans for rows without a vector: bounds a step over an indexed store. */
export const BACKFILL_WINDOW = 4_096;

export interface VectorIndexOptions {
  /** The embedder, or how to load it; null turns vectors off. */
  readonly embedder: Embedder | (() => Embedder) | null;
  /** Told once when the embedder cannot load or fails. */
  readonly onWarning?: (message: string) => void;
}

export interface BackfillStep {
  /** Rows embedded and written by this step. */
  readonly embedded: number;
  /** True once every row up to the newest has been looked at. */
  readonly done: boolean;
}

export interface IndexStatus {
  readonly embedder_id: string | null;
  readonly dims: number | null;
  readonly vectors: number;
  readonly observations: number;
  /** Why vectors are off, when they are. */
  readonly disabled_reason: string | null;
}

export interface BackfillResult extends IndexStatus {
  readonly embedded: number;
}

export class VectorIndex {
  readonly #store: ColonyStore;
  readonly #onWarning: (message: string) => void;
  #source: Embedder | (() => Embedder) | null;
  #embedder: Embedder | null = null;
  #disabled: string | null = null;
  /** Rows with ids up to here were looked at by this process's backfill. */
  #cursor = 0;

  constructor(store: ColonyStore, options: VectorIndexOptions) {
    this.#store = store;
    this.#source = options.embedder;
    this.#onWarning = options.onWarning ?? (() => {});
    if (options.embedder === null) this.#disabled = 'vectors are turned off (no embedder)';
  }

  /** The embedder in use, loading it on first use; null when vectors are off. */
  embedder(): Embedder | null {
    if (this.#embedder || this.#disabled) return this.#embedder;
    try {
      const source = this.#source;
      const embedder = typeof source === 'function' ? source() : source;
      if (!embedder?.id || !Number.isInteger(embedder.dims) || embedder.dims < 1) {
        throw new Error('an embedder needs an id and integer dims');
      }
      this.#embedder = embedder;
    } catch (error) {
      this.#disable(`embedder cannot load (${message(error)})`);
    }
    return this.#embedder;
  }

  /** Why vectors are off, or null when they are on. */
  disabledReason(): string | null {
    this.embedder();
    return this.#disabled;
  }

  /** The query's vector, or null when vectors are off (or the embedder just failed). */
  embedQuery(text: string): Float32Array | null {
    const vectors = this.#embed([text]);
    return vectors?.[0] ?? null;
  }

  /** Stored vectors of these observations for the current embedder. */
  async vectorsOf(ids: readonly number[]): Promise<Map<number, Float32Array>> {
    const embedder = this.embedder();
    return embedder ? await vectorsOf(this.#store, embedder.id, ids) : new Map();
  }

  /** Every task's vector sum for the current embedder. */
  async taskSums(): Promise<TaskVectorSum[]> {
    const embedder = this.embedder();
    return embedder ? await taskVectorSums(this.#store, embedder.id) : [];
  }

  /**
   * Embeds the next batch of rows without a vector, scanning at most `window` ids past
   * this process's cursor. Cheap when nothing is missing; call it when idle.
   * `lockWaitMs` bounds the wait for another writer's lock (STORE_BUSY past it): a
   * background step should not stall its thread behind other processes' writes.
   */
  async step(batch = BACKFILL_BATCH, window = BACKFILL_WINDOW, lockWaitMs?: number): Promise<BackfillStep> {
    const embedder = this.embedder();
    if (!embedder || this.#store.closed) return { embedded: 0, done: true };
    const newest = await maxObservationId(this.#store);
    if (this.#cursor > newest) this.#cursor = 0; // a different store file behind the same path
    if (this.#cursor >= newest) return { embedded: 0, done: true };
    const upTo = Math.min(this.#cursor + window, newest);
    const rows = await observationsWithoutVector(this.#store, embedder.id, this.#cursor, upTo, batch);
    const vectors = rows.length > 0 ? this.#embed(rows.map((r) => r.content)) : [];
    if (vectors === null) return { embedded: 0, done: true };
    const written = await insertVectors(
      this.#store,
      embedder.id,
      embedder.dims,
      rows.map((row, i) => ({ observationId: row.id, taskId: row.taskId, vector: vectors[i] as Float32Array })),
      lockWaitMs === undefined ? {} : { busyTimeoutMs: lockWaitMs },
    );
    this.#cursor = rows.length === batch ? (rows[rows.length - 1] as { id: number }).id : upTo;
    return { embedded: written, done: this.#cursor >= newest };
  }

  /** Embeds every row without a vector for the current embedder, from the oldest. */
  async backfill(options: { batch?: number } = {}): Promise<BackfillResult> {
    this.#cursor = 0;
    let embedded = 0;
    for (;;) {
      const step = await this.step(options.batch ?? BACKFILL_BATCH);
      embedded += step.embedded;
      if (step.done) break;
    }
    return { embedded, ...(await this.status()) };
  }

  async status(): Promise<IndexStatus> {
    const embedder = this.embedder();
    return {
      embedder_id: embedder?.id ?? null,
      dims: embedder?.dims ?? null,
      vectors: embedder ? await countVectors(this.#store, embedder.id) : 0,
      observations: await countObservations(this.#store),
      disabled_reason: this.#disabled,
    };
  }

  /** Embeds texts, checking the answer; on any failure vectors go off for this process. */
  #embed(texts: readonly string[]): Float32Array[] | null {
    const embedder = this.embedder();
    if (!embedder) return null;
    try {
      const vectors = embedder.embed(texts);
      if (vectors.length !== texts.length || vectors.some((v) => v.length !== embedder.dims)) {
        throw new Error(`expected ${texts.length} vector(s) of ${embedder.dims} dims`);
      }
      return vectors;
    } catch (error) {
      this.#disable(`embedder "${embedder.id}" failed (${message(error)})`);
      return null;
    }
  }

  #disable(reason: string): void {
    this.#embedder = null;
    this.#source = null;
    this.#disabled = reason;
    this.#onWarning(`${reason}: search ranks by keywords (BM25) only and suggestions are off`);
  }
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

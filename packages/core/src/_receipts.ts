/**
 * @module receipts
 * The receipt of every tool call, written just after the answer, not before it:
 * counting the tokens of an answer (~0.25 ms for a search answer) and committing a
 * row would otherwise sit on every call's latency.
 *
 * Each receipt's texts go to the token worker at once, so counting runs beside the
 * caller's thread; a receipt is written as soon as its counts arrive (on a later turn
 * of the event loop). `flush()` runs before every call and on close: it waits for the
 * counts still on their way and writes every pending receipt, so a call that reads
 * receipts (task_list counts them) sees every earlier one. Without a worker, or for a
 * job the worker could not count, the counts are made in-thread, as before.
 *
 * A receipt is also a sign of life: the heartbeat of the calling session (the call's
 * `session_id`) moves to the call's time in the same transaction, so reads keep a lane
 * alive as writes do.
 */
import type { CountJob, TokenCounter, TokenWorker } from '@swarm/coordination';
import { heartbeatSessions, insertReceipts, type Store } from '@swarm/storage';
import type { CallReceipt } from '@swarm/tools';

/** How long `flush` waits for the worker (its first answer includes loading the tokenizer). */
const SETTLE_TIMEOUT_MS = 2_000;

interface Pending {
  readonly receipt: CallReceipt;
  readonly job: CountJob | undefined;
}

export class ReceiptQueue {
  readonly #store: Store;
  readonly #tokens: TokenCounter;
  readonly #worker: TokenWorker | undefined;
  readonly #onError: ((error: unknown, tool: string) => void) | undefined;
  #pending: Pending[] = [];
  #scheduled = false;

  constructor(
    store: Store,
    tokens: TokenCounter,
    worker: TokenWorker | undefined,
    onError?: (error: unknown, tool: string) => void,
  ) {
    this.#store = store;
    this.#tokens = tokens;
    this.#worker = worker;
    this.#onError = onError;
  }

  push(receipt: CallReceipt): void {
    // A store that refuses writes (read-only, newer schema) keeps no receipts.
    if (!this.#store.writable) return;
    const job = this.#worker?.submit([receipt.inputText, receipt.outputText], () => this.#schedule());
    this.#pending.push({ receipt, job });
    if (!job) this.#schedule();
  }

  /** Writes every pending receipt now, waiting for counts still with the worker. */
  flush(): void {
    this.#scheduled = false;
    if (this.#pending.length === 0 || this.#store.closed) return;
    const jobs = this.#pending.flatMap((p) => (p.job && p.job.counts === undefined ? [p.job] : []));
    if (jobs.length > 0) this.#worker?.settle(jobs, SETTLE_TIMEOUT_MS);
    const batch = this.#pending;
    this.#pending = [];
    this.#write(batch);
  }

  #schedule(): void {
    if (this.#scheduled) return;
    this.#scheduled = true;
    setImmediate(() => this.#writeCounted()).unref();
  }

  /** Writes the receipts whose counts are known; the rest wait for theirs (or a flush). */
  #writeCounted(): void {
    this.#scheduled = false;
    if (this.#store.closed) return;
    const ready = this.#pending.filter((p) => !p.job || p.job.counts !== undefined);
    if (ready.length === 0) return;
    this.#pending = this.#pending.filter((p) => p.job && p.job.counts === undefined);
    this.#write(ready);
  }

  #write(batch: readonly Pending[]): void {
    try {
      // Counted before the write: a fallback count in-thread must not hold the lock.
      const rows = batch.map(({ receipt: r, job }) => {
        const counts = job?.counts ?? [this.#tokens.count(r.inputText), this.#tokens.count(r.outputText)];
        return {
          ts: r.ts,
          operation: r.operation,
          sessionId: r.sessionId,
          durationMs: r.durationMs,
          inputTokens: counts[0] ?? 0,
          outputTokens: counts[1] ?? 0,
          ok: r.ok,
          errorCode: r.errorCode,
          errorMessage: r.errorMessage,
        };
      });
      // A call by a session is a sign of life: its heartbeat moves to the call's time.
      const beats = rows.flatMap((r) => (r.sessionId ? [{ id: r.sessionId, ts: r.ts }] : []));
      this.#store.write(() => {
        insertReceipts(this.#store, rows);
        heartbeatSessions(this.#store, beats);
      });
    } catch (error) {
      // Receipts are bookkeeping: losing a batch must never fail a call.
      this.#onError?.(error, 'receipts');
    }
  }
}

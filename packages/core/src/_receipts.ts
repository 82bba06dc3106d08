/**
 * @module receipts
 * The receipt of every tool call, kept off the call's hot path and off the store's
 * write lock as far as it can be:
 *
 * - A receipt is buffered, not written, when the call ends. Its token counts are made
 *   after the answer (on a later turn of the event loop): on this thread when the
 *   tokenizer is already loaded here (one copy per process), else on the token worker
 *   (a child process: see @swarm/coordination token-worker).
 * - Buffered receipts ride along in the next write transaction of this process (a
 *   mutating call: no lock of their own), once their counts are known; nothing is ever
 *   counted while the lock is held.
 * - Otherwise they are written in one transaction FLUSH_AFTER_MS after the first was
 *   buffered, when MAX_PENDING are buffered, before a read call (a call that reads
 *   receipts, such as task_list, sees every earlier one), and on close. A clean exit
 *   loses none (counts the worker has not answered within FINAL_SETTLE_MS are then
 *   estimated); a crash loses at most the receipts of the last FLUSH_AFTER_MS.
 *
 * The worker stops WORKER_IDLE_MS after its last count and starts again when needed,
 * so an idle server has no tokenizer, in its own memory or in a child.
 *
 * Observations written while the tokenizer was not loaded here are stored with an
 * estimate (`deferCount`); their exact counts are refined the same way.
 *
 * A receipt is also a sign of life: the heartbeat of the calling session (the call's
 * `session_id`) moves to the call's time in the same transaction.
 */
import { AsyncResource } from 'node:async_hooks';
import { type CountJob, estimateTokens, type TokenCounter, type TokenWorker } from '@swarm/coordination';
import { type ColonyStore, isStoreBusy, type TokenCountRefinement, writeBookkeeping } from '@swarm/storage';
import type { CallReceipt } from '@swarm/tools';

/** How long `flush` waits for the worker (its first answer includes loading the tokenizer). */
const SETTLE_TIMEOUT_MS = 2_000;
/**
 * The wait at close: shorter, because a client gives a stdio server about 2 s after
 * closing its stdin before SIGTERM, and 2 s more before SIGKILL (the MCP SDK's
 * StdioClientTransport). Counts still on their way then are estimated, not counted by
 * loading the tokenizer here: a receipt with an estimate beats one killed unwritten.
 */
const FINAL_SETTLE_MS = 1_000;
/** Longest a buffered receipt waits for a write to ride in before it is written alone. */
export const FLUSH_AFTER_MS = 200;
/** Calls whose texts go to the worker together, in one message (it costs more than a count). */
const DISPATCH_AFTER_MS = 5;
/** Buffered receipts (and refinements) that trigger a write at once. */
const MAX_PENDING = 256;
/**
 * How long a flush waits for another writer's lock before leaving its rows for later
 * (the next write they can ride in, or the next flush): a flush runs on the server's
 * only thread, which must not stall behind another process's transaction.
 */
const FLUSH_LOCK_WAIT_MS = 20;
/**
 * How long the token worker outlives its last count, at first. It is a child process of
 * ~70 MiB (RSS) with its tokenizer: an idle server ends it, and starts it again (~0.2 s
 * of CPU in the child, never on the calls' thread) when counts are due. A worker needed
 * again within WORKER_IDLE_MAX_MS of being stopped lives twice as long the next time
 * (up to that), so a server called every few seconds keeps it instead of reloading it.
 */
export const WORKER_IDLE_MS = 1_000;
export const WORKER_IDLE_MAX_MS = 30_000;

/** Run when the write a ride is in ends: committed, or rolled back. */
type RideEnd = ((committed: boolean) => void) | undefined;

interface Pending {
  readonly receipt?: CallReceipt;
  readonly refine?: { readonly id: number; readonly content: string };
  readonly texts: readonly string[];
  /** When it was buffered (`performance.now()`): the flush timer counts from the oldest. */
  readonly at: number;
  /** The worker job counting this item's texts, from `offset` on (one job per dispatch). */
  job?: CountJob;
  offset?: number;
  counts?: readonly number[];
  /** Taken by a write in flight (a ride): no other write takes it until that one ends. */
  riding?: boolean;
}

export class ReceiptQueue {
  readonly #store: ColonyStore;
  readonly #tokens: TokenCounter;
  readonly #startWorker: () => TokenWorker | undefined;
  readonly #onError: ((error: unknown, tool: string) => void) | undefined;
  /** undefined: not started yet; null: none (or stopped). */
  #worker: TokenWorker | null | undefined;
  #pending: Pending[] = [];
  #undispatched: Pending[] = [];
  #dispatchScheduled = false;
  #timer: NodeJS.Timeout | undefined;
  #retireTimer: NodeJS.Timeout | undefined;
  #workerIdleMs = WORKER_IDLE_MS;
  #retiredAt: number | undefined;
  #flushing = false;

  constructor(
    store: ColonyStore,
    tokens: TokenCounter,
    startWorker: () => TokenWorker | undefined,
    onError?: (error: unknown, tool: string) => void,
  ) {
    this.#store = store;
    this.#tokens = tokens;
    this.#startWorker = startWorker;
    this.#onError = onError;
    store.setWriteRider(() => this.#ride());
  }

  /**
   * Runs `fn` in the context this queue was made in, outside any transaction: a flush
   * that a call's body set off (a timer, setImmediate) would otherwise inherit the body's
   * transaction context and write inside it, beside the body's own statements.
   */
  readonly #outside = AsyncResource.bind(<T>(fn: () => T): T => fn());

  push(receipt: CallReceipt): void {
    // A store that refuses writes (read-only, newer schema) keeps no receipts.
    if (!this.#store.writable) return;
    this.#add({ receipt, texts: [receipt.inputText, receipt.outputText], at: performance.now() });
  }

  /** Counts an observation stored with an estimate, and writes the count with the receipts. */
  deferCount(id: number, content: string): void {
    this.#add({ refine: { id, content }, texts: [content], at: performance.now() });
  }

  /**
   * Writes everything buffered now, waiting (outside the lock) for counts still on their
   * way. While another writer holds the lock it leaves them buffered and tries again
   * later, unless `final` (close): then it waits the full busy timeout.
   */
  async flush(final = false): Promise<void> {
    await this.#write(final ? 'final' : 'now');
  }

  /**
   * `now` and `final` wait for counts (a read call must see every earlier receipt);
   * `background` (the timer) writes what is counted and leaves the rest for later, so
   * the server's thread never stalls while the worker loads its tokenizer.
   */
  async #write(mode: 'background' | 'now' | 'final'): Promise<void> {
    this.#clearTimer();
    if (this.#pending.length === 0 || this.#store.closed || !this.#store.writable) return;
    this.#dispatch();
    if (mode !== 'background') {
      const waiting = [
        ...new Set(this.#pending.flatMap((p) => (p.counts || !p.job || p.job.counts !== undefined ? [] : [p.job]))),
      ];
      const wait = mode === 'final' ? FINAL_SETTLE_MS : SETTLE_TIMEOUT_MS;
      if (waiting.length > 0 && this.#worker) this.#worker.settle(waiting, wait);
    }
    // At close without a tokenizer on this thread, late counts are estimated (see FINAL_SETTLE_MS).
    const count =
      mode === 'final' && this.#tokens.ready?.() === false
        ? (t: string) => estimateTokens(t)
        : (t: string) => this.#tokens.count(t);
    const batch: Pending[] = [];
    const later: Pending[] = [];
    for (const p of this.#pending) {
      // Rows a write in flight carries stay until it ends (written once it commits).
      if (p.riding) later.push(p);
      // A job the worker could not count (null) is counted here, as is one that outlived the settle.
      else if (mode === 'background' && p.job && p.job.counts === undefined) later.push(p);
      else {
        p.counts = this.#countsOf(p) ?? p.texts.map(count);
        batch.push(p);
      }
    }
    this.#pending = later;
    if (later.some((p) => !p.riding)) this.#arm();
    if (batch.length === 0) return;
    this.#flushing = true;
    try {
      const options = mode === 'final' ? {} : { busyTimeoutMs: FLUSH_LOCK_WAIT_MS };
      await this.#outside(() => this.#store.write(() => this.#insert(batch), options));
    } catch (error) {
      if (isStoreBusy(error) && mode !== 'final') {
        // Kept for the next write: a busy store is no reason to lose them.
        this.#pending = [...batch, ...this.#pending];
        this.#arm();
        return;
      }
      this.#onError?.(error, 'receipts');
    } finally {
      this.#flushing = false;
    }
  }

  #add(p: Pending): void {
    this.#pending.push(p);
    this.#undispatched.push(p);
    if (!this.#dispatchScheduled) {
      this.#dispatchScheduled = true;
      setTimeout(() => this.#dispatch(), DISPATCH_AFTER_MS).unref();
    }
    if (this.#pending.length >= MAX_PENDING) setImmediate(() => this.#write('background')).unref();
    this.#arm();
  }

  /**
   * Arms the flush timer, unless it is armed: it writes FLUSH_AFTER_MS after the oldest
   * item still buffered was, re-arming itself when that is later (items written by a
   * ride meanwhile leave it armed: a call costs no timer of its own).
   */
  #arm(): void {
    if (this.#timer) return;
    this.#timer = setTimeout(() => this.#due(), FLUSH_AFTER_MS);
    this.#timer.unref();
  }

  #due(): void {
    this.#timer = undefined;
    const oldest = this.#pending.find((p) => !p.riding)?.at;
    if (oldest === undefined) return;
    const wait = oldest + FLUSH_AFTER_MS - performance.now();
    if (wait <= 0) {
      void this.#write('background');
      return;
    }
    this.#timer = setTimeout(() => this.#due(), wait);
    this.#timer.unref();
  }

  #clearTimer(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  /** After the answer: count here when this thread has the tokenizer, else on the worker. */
  #dispatch(): void {
    this.#dispatchScheduled = false;
    const batch = this.#undispatched;
    this.#undispatched = [];
    if (batch.length === 0) return;
    const worker = this.#currentWorker();
    const todo = batch.filter((p) => !p.counts && !p.job);
    if (!worker) {
      for (const p of todo) p.counts = p.texts.map((t) => this.#tokens.count(t));
      return;
    }
    // One message for the whole batch: a message costs more than counting a note.
    const texts: string[] = [];
    for (const p of todo) {
      p.offset = texts.length;
      texts.push(...p.texts);
    }
    if (texts.length === 0) return;
    const job = worker.submit(texts, () => {});
    for (const p of todo) p.job = job;
    this.#armRetire();
  }

  /** Stops the worker WORKER_IDLE_MS after its last job, once every job it was given has answered. */
  #armRetire(): void {
    clearTimeout(this.#retireTimer);
    this.#retireTimer = setTimeout(() => {
      const worker = this.#worker;
      if (!worker) return;
      if (this.#pending.some((p) => p.job && p.job.counts === undefined)) return this.#armRetire();
      worker.stop();
      this.#worker = undefined; // started again when counts are due
      this.#retiredAt = performance.now();
    }, this.#workerIdleMs);
    this.#retireTimer.unref();
  }

  /**
   * The worker while this thread has no tokenizer of its own. Once this thread has
   * loaded one (a figure such as a budget needed it), the worker is stopped: one copy.
   */
  #currentWorker(): TokenWorker | undefined {
    if (this.#tokens.ready?.() !== false) {
      // Jobs still out answer null and are counted here, where the tokenizer now is.
      this.#worker?.stop();
      this.#worker = null;
      return undefined;
    }
    if (this.#worker === undefined) {
      const since = this.#retiredAt === undefined ? Infinity : performance.now() - this.#retiredAt;
      this.#workerIdleMs =
        since < WORKER_IDLE_MAX_MS ? Math.min(this.#workerIdleMs * 2, WORKER_IDLE_MAX_MS) : WORKER_IDLE_MS;
      this.#worker = this.#startWorker() ?? null;
    }
    return this.#worker ?? undefined;
  }

  /** Counts known without counting now (never under the lock); undefined while on their way. */
  #countsOf(p: Pending): readonly number[] | undefined {
    if (p.counts) return p.counts;
    const counts = p.job?.counts;
    if (!counts) return undefined;
    const from = p.offset ?? 0;
    p.counts = counts.slice(from, from + p.texts.length);
    return p.counts;
  }

  /** The write rider: buffered items whose counts are known, written in the caller's transaction. */
  #ride(): RideEnd | Promise<RideEnd> {
    if (this.#flushing) return undefined;
    // The counted items at the front (the worker answers in order), past those another
    // write in flight carries (PostgreSQL's writes run side by side: each item rides in
    // one of them only): a call costs what it writes, not what is still being counted
    // behind it (up to MAX_PENDING).
    const ready: Pending[] = [];
    for (const p of this.#pending) {
      if (p.riding) continue;
      if (this.#countsOf(p) === undefined) break;
      ready.push(p);
    }
    // Nothing to write: the call's body starts at once, without a promise hop.
    if (ready.length === 0) return undefined;
    for (const p of ready) p.riding = true;
    return this.#rideWith(ready);
  }

  async #rideWith(ready: Pending[]): Promise<RideEnd> {
    const release = () => {
      for (const p of ready) p.riding = false;
    };
    try {
      // A savepoint: if bookkeeping fails, the call's own write still goes ahead.
      await this.#store.write(() => this.#insert(ready));
    } catch (error) {
      release();
      // Rows another writer holds (PostgreSQL's writers run side by side): kept for a later write.
      if (!isStoreBusy(error)) this.#onError?.(error, 'receipts');
      return undefined;
    }
    return (committed) => {
      release();
      // Rolled back with the call's write: still buffered, for the next write or flush.
      if (!committed) return this.#arm();
      const written = new Set(ready);
      this.#pending = this.#pending.filter((p) => !written.has(p));
    };
  }

  async #insert(batch: readonly Pending[]): Promise<void> {
    const rows = [];
    const refinements: TokenCountRefinement[] = [];
    for (const p of batch) {
      const counts = this.#countsOf(p) ?? [];
      if (p.refine) refinements.push({ ...p.refine, tokenCount: counts[0] ?? 0 });
      const r = p.receipt;
      if (!r) continue;
      rows.push({
        ts: r.ts,
        operation: r.operation,
        sessionId: r.sessionId,
        durationMs: r.durationMs,
        inputTokens: counts[0] ?? 0,
        outputTokens: counts[1] ?? 0,
        ok: r.ok,
        errorCode: r.errorCode,
        errorMessage: r.errorMessage,
      });
    }
    // A call by a session is a sign of life: its heartbeat moves to the call's time.
    const beats = rows.flatMap((r) => (r.sessionId ? [{ id: r.sessionId, ts: r.ts }] : []));
    await writeBookkeeping(this.#store, { receipts: rows, beats, refinements });
  }
}

/**
 * @module token-worker
 * Token counting on a worker thread, for counts a caller can wait for (call receipts):
 * the tokenizer's CPU leaves the caller's thread, which keeps answering. One worker per
 * tokenizer module per process, started on first use and unref'd (it never keeps a
 * process alive). Counts are the in-thread counter's: the caller cuts texts into the
 * same pieces (`tokenPieces`) and the worker counts them with the same module and
 * options. A job the worker cannot count answers `null`, and the caller counts it
 * in-thread (which degrades to estimates and warns as usual).
 *
 * `settle` waits synchronously (Atomics.wait on a counter the worker bumps after each
 * answer) and then takes the answers off the port (receiveMessageOnPort), so a caller
 * that must see every count before going on (the next call reads receipts) needs no
 * turn of the event loop.
 */
import { createRequire } from 'node:module';
import type { Worker } from 'node:worker_threads';
import { DEFAULT_TOKENIZER_MODULE, tokenPieces } from './tokens';

/** Texts handed to the worker; `counts` is set when it answers (null: count them in-thread). */
export interface CountJob {
  readonly texts: readonly string[];
  counts?: readonly number[] | null;
}

export interface TokenWorker {
  /** Hands texts to the worker; `onDone` runs when the answer arrives (or is settled). */
  submit(texts: readonly string[], onDone: (job: CountJob) => void): CountJob;
  /** Blocks until these jobs have answers or `timeoutMs` has passed. */
  settle(jobs: readonly CountJob[], timeoutMs: number): void;
  /**
   * Ends the worker and frees its tokenizer (when the caller's thread has loaded its own:
   * one copy per process). Jobs still out answer `null` at once; later ones too.
   */
  stop(): void;
}

// Plain CommonJS run with `eval`: no file to ship beside the bundles, nothing to build.
const WORKER_SOURCE = `
const { workerData } = require('node:worker_threads');
const { port, path } = workerData;
const answered = new Int32Array(workerData.answered);
let countTokens = null;
try {
  const loaded = require(path).countTokens;
  if (typeof loaded === 'function') countTokens = loaded;
} catch {}
const ordinary = { disallowedSpecial: new Set() };
port.on('message', ({ id, texts }) => {
  let counts = null;
  if (countTokens) {
    try {
      counts = texts.map((pieces) => pieces.reduce((sum, piece) => sum + countTokens(piece, ordinary), 0));
    } catch {
      counts = null;
    }
  }
  port.postMessage({ id, counts });
  Atomics.add(answered, 0, 1);
  Atomics.notify(answered, 0);
});
`;

/**
 * The worker's young generation, in MiB. The tokenizer's tables sit in the old one, and
 * its garbage is short-lived: with the default young generation, an idle server that
 * has answered 100 searches held ~12 MiB more RSS than with this.
 */
const YOUNG_GENERATION_MB = 2;

interface Answer {
  readonly id: number;
  readonly counts: number[] | null;
}

const workers = new Map<string, TokenWorker | null>();

/**
 * The worker for a tokenizer module (default gpt-tokenizer cl100k_base), or undefined
 * when none can start (the module does not resolve, or threads are unavailable).
 */
export function tokenWorker(module: string = DEFAULT_TOKENIZER_MODULE): TokenWorker | undefined {
  let worker = workers.get(module);
  if (worker === undefined) {
    worker = startWorker(module);
    workers.set(module, worker);
  }
  return worker ?? undefined;
}

function startWorker(module: string): TokenWorker | null {
  let path: string;
  let threads: typeof import('node:worker_threads');
  try {
    const require = createRequire(import.meta.url);
    path = require.resolve(module);
    threads = require('node:worker_threads');
  } catch {
    return null;
  }
  const answered = new Int32Array(new SharedArrayBuffer(4));
  const { port1, port2 } = new threads.MessageChannel();
  let worker: Worker;
  try {
    worker = new threads.Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { port: port1, path, answered: answered.buffer },
      transferList: [port1],
      resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB },
    });
  } catch {
    return null;
  }

  const waiting = new Map<number, { job: CountJob; onDone: (job: CountJob) => void }>();
  let submitted = 0;
  let dead = false;
  const finish = (answer: Answer) => {
    const entry = waiting.get(answer.id);
    if (!entry) return;
    waiting.delete(answer.id);
    entry.job.counts = answer.counts;
    entry.onDone(entry.job);
  };
  const giveUp = () => {
    dead = true;
    for (const id of [...waiting.keys()]) finish({ id, counts: null });
  };
  port2.on('message', finish);
  worker.on('error', giveUp);
  worker.on('exit', giveUp);
  // After the listeners: attaching a 'message' listener refs the port again.
  port2.unref();
  worker.unref();

  return {
    submit(texts, onDone) {
      const job: CountJob = { texts };
      if (dead) {
        job.counts = null;
        onDone(job);
        return job;
      }
      const id = ++submitted;
      waiting.set(id, { job, onDone });
      port2.postMessage({ id, texts: texts.map(tokenPieces) });
      return job;
    },
    settle(jobs, timeoutMs) {
      const deadline = performance.now() + timeoutMs;
      for (;;) {
        // Read before draining: an answer that lands after this read ends the wait at once.
        const seen = Atomics.load(answered, 0);
        for (let m = threads.receiveMessageOnPort(port2); m; m = threads.receiveMessageOnPort(port2)) {
          finish(m.message as Answer);
        }
        if (dead || jobs.every((job) => job.counts !== undefined)) return;
        const left = deadline - performance.now();
        if (left <= 0) return;
        Atomics.wait(answered, 0, seen, Math.min(left, 50));
      }
    },
    stop() {
      if (dead) return;
      giveUp();
      void worker.terminate();
      workers.delete(module);
    },
  };
}

/**
 * @module token-worker
 * Token counting in a short-lived child process, for counts a caller can wait for (call
 * receipts): the tokenizer's CPU leaves the caller's thread, which keeps answering, and
 * its memory (~35 MiB) leaves the caller's process for good when the child exits (a
 * worker thread's malloc arenas stay in the process after the thread ends). One child
 * per tokenizer module per process, started on first use and unref'd (it never keeps a
 * process alive); it exits when stopped and whenever its parent goes. Counts are the
 * in-thread counter's: the caller cuts texts into the same pieces (`tokenPieces`) and
 * the child counts them with the same module and options. A job the child cannot count
 * answers `null`, and the caller counts it in-thread (degrading to estimates as usual).
 *
 * Answers are appended to a private temporary file (unlinked at once where the OS
 * allows it) and the child wakes the parent over IPC; `settle` reads the file itself,
 * polling, so a caller that must see every count before going on (the next call reads
 * receipts) needs no turn of the event loop.
 */
import type { ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { answerFile } from './_token-answers';
import { TOKEN_CHILD_FLAGS, TOKEN_CHILD_SOURCE } from './_token-child';
import { DEFAULT_TOKENIZER_MODULE, tokenPieces } from './tokens';

/** Texts handed to the child; `counts` is set when it answers (null: count them in-thread). */
export interface CountJob {
  readonly texts: readonly string[];
  counts?: readonly number[] | null;
}

export interface TokenWorker {
  /** Hands texts to the child; `onDone` runs when the answer arrives (or is settled). */
  submit(texts: readonly string[], onDone: (job: CountJob) => void): CountJob;
  /** Blocks until these jobs have answers or `timeoutMs` has passed. */
  settle(jobs: readonly CountJob[], timeoutMs: number): void;
  /** Ends the child and frees its tokenizer. Jobs still out answer `null` at once; later ones too. */
  stop(): void;
}

interface Answer {
  readonly id: number;
  readonly counts: number[] | null;
}

const workers = new Map<string, TokenWorker | null>();
const sleeper = new Int32Array(new SharedArrayBuffer(4));

/**
 * The counting child for a tokenizer module (default gpt-tokenizer cl100k_base), or
 * undefined when none can start (the module does not resolve, or no process can spawn).
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
  let spawn: typeof import('node:child_process').spawn;
  try {
    const require = createRequire(import.meta.url);
    path = require.resolve(module);
    spawn = require('node:child_process').spawn;
  } catch {
    return null;
  }
  const answers = answerFile();
  if (!answers) return null;
  let child: ChildProcess;
  try {
    child = spawn(process.execPath, [...TOKEN_CHILD_FLAGS, '-e', TOKEN_CHILD_SOURCE, path, answers.path], {
      stdio: ['ignore', 'ignore', 'ignore', 'ipc', answers.fd],
      windowsHide: true,
    });
  } catch {
    answers.close();
    return null;
  }
  answers.spawned();

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
  const drain = () => {
    for (const answer of answers.read() as Answer[]) finish(answer);
  };
  const giveUp = () => {
    if (dead) return;
    dead = true;
    drain();
    for (const id of [...waiting.keys()]) finish({ id, counts: null });
    answers.close();
    workers.delete(module);
  };
  child.on('message', drain);
  child.on('error', giveUp);
  child.on('exit', giveUp);
  // After the listeners: attaching a 'message' listener refs the channel again.
  child.channel?.unref();
  child.unref();

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
      try {
        child.send({ id, texts: texts.map(tokenPieces) });
      } catch {
        giveUp();
      }
      return job;
    },
    settle(jobs, timeoutMs) {
      const deadline = performance.now() + timeoutMs;
      for (let pause = 1; ; pause = Math.min(pause * 2, 8)) {
        if (!dead) drain();
        if (dead || jobs.every((job) => job.counts !== undefined)) return;
        const left = deadline - performance.now();
        if (left <= 0) return;
        Atomics.wait(sleeper, 0, 0, Math.min(left, pause));
      }
    },
    stop() {
      if (dead) return;
      child.kill();
      giveUp();
    },
  };
}

/**
 * @module run-once-async
 * Idempotent mutating calls whose handlers are async (they run git and shell processes), so
 * they cannot run inside one write transaction. The key is reserved first: a pending marker
 * row (with the reserving pid) is written in a short write transaction, the handler runs,
 * then the marker becomes the answer. A failed call deletes the marker so a retry runs again.
 *
 * - Same process: a retry while the first call is in flight awaits the same promise.
 * - Other process: a duplicate polls the row until the answer is there (bounded), or takes
 *   the reservation over when the reserving pid is dead.
 */
import { createRequire } from 'node:module';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Clock } from '@swarm/coordination';
import {
  type ColonyStore,
  deleteIdempotentResult,
  findIdempotentResult,
  replaceIdempotentResult,
  saveIdempotentResult,
} from '@swarm/storage';
import { ColonyError } from '@swarm/tools';

/** The stored result of a reserved key whose call is still running. */
const PENDING = '__colony_idempotency_pending__';

interface PendingMarker {
  readonly [PENDING]: { readonly pid: number; readonly token: string };
}

export interface RunOnceAsyncOptions {
  /** How long a duplicate waits for another process's call, in ms (default 10 minutes). */
  readonly waitMs?: number;
  /** How often a duplicate re-reads the row, in ms (default 100). */
  readonly pollMs?: number;
  /** Whether a pid is a live process (default: `process.kill(pid, 0)`). */
  readonly isAlive?: (pid: number) => boolean;
  /** This process's pid as recorded in a reservation (default `process.pid`). */
  readonly pid?: number;
}

const inFlight = new WeakMap<ColonyStore, Map<string, { argsHash: string; promise: Promise<unknown> }>>();

function pendingOf(result: unknown): PendingMarker[typeof PENDING] | undefined {
  if (typeof result !== 'object' || result === null || !(PENDING in result)) return undefined;
  return (result as PendingMarker)[PENDING];
}

export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function reused(tool: string, key: string): ColonyError {
  return new ColonyError(
    'IDEMPOTENCY_KEY_REUSED',
    `idempotency_key "${key}" was already used for ${tool} with different arguments`,
    { details: { idempotency_key: key } },
  );
}

/** Runs an async mutating call at most once per (tool, key), across calls and processes. */
export function runOnceAsync<T>(
  store: ColonyStore,
  clock: Clock,
  tool: string,
  key: string,
  argsHash: string,
  fn: () => Promise<T>,
  options: RunOnceAsyncOptions = {},
): Promise<T> {
  const calls = inFlight.get(store) ?? new Map();
  inFlight.set(store, calls);
  const slot = JSON.stringify([tool, key]);
  const running = calls.get(slot);
  if (running) {
    if (running.argsHash !== argsHash) return Promise.reject(reused(tool, key));
    return running.promise as Promise<T>;
  }
  const promise = settle(store, clock, tool, key, argsHash, fn, options);
  calls.set(slot, { argsHash, promise });
  const forget = () => calls.delete(slot);
  promise.then(forget, forget);
  return promise;
}

type Step<T> = { readonly kind: 'done'; readonly result: T } | { readonly kind: 'run' } | { readonly kind: 'wait' };

async function settle<T>(
  store: ColonyStore,
  clock: Clock,
  tool: string,
  key: string,
  argsHash: string,
  fn: () => Promise<T>,
  options: RunOnceAsyncOptions,
): Promise<T> {
  const pid = options.pid ?? process.pid;
  const isAlive = options.isAlive ?? pidAlive;
  const pollMs = options.pollMs ?? 100;
  // node:crypto on first use: it starts OpenSSL (~2 MiB of RSS), which most calls never need.
  const { randomUUID } = createRequire(import.meta.url)('node:crypto') as typeof import('node:crypto');
  const token = randomUUID();
  const marker: PendingMarker = { [PENDING]: { pid, token } };
  const polls = Math.max(1, Math.ceil((options.waitMs ?? 600_000) / pollMs));
  for (let poll = 0; ; poll++) {
    const step = await store.write(async (): Promise<Step<T>> => {
      const prior = await findIdempotentResult(store, tool, key);
      if (!prior) {
        await saveIdempotentResult(store, tool, key, argsHash, marker, clock.now());
        return { kind: 'run' };
      }
      if (prior.argsHash !== argsHash) throw reused(tool, key);
      const pending = pendingOf(prior.result);
      if (!pending) return { kind: 'done', result: prior.result as T };
      if (pending.pid !== pid && !isAlive(pending.pid)) {
        await replaceIdempotentResult(store, tool, key, marker, clock.now());
        return { kind: 'run' };
      }
      return { kind: 'wait' };
    });
    if (step.kind === 'done') return step.result;
    if (step.kind === 'run') return run(store, clock, tool, key, token, fn);
    if (poll >= polls) {
      throw new ColonyError('TIMEOUT', `${tool}: the call with idempotency_key "${key}" is still running elsewhere`, {
        details: { idempotency_key: key },
      });
    }
    await sleep(pollMs);
  }
}

/** Runs the reserved call; the answer replaces our marker, an error deletes it. */
async function run<T>(
  store: ColonyStore,
  clock: Clock,
  tool: string,
  key: string,
  token: string,
  fn: () => Promise<T>,
) {
  const ours = async () => pendingOf((await findIdempotentResult(store, tool, key))?.result)?.token === token;
  let result: T;
  try {
    result = await fn();
  } catch (error) {
    await store.write(async () => {
      if (await ours()) await deleteIdempotentResult(store, tool, key);
    });
    throw error;
  }
  await store.write(async () => {
    if (await ours()) await replaceIdempotentResult(store, tool, key, result, clock.now());
  });
  return result;
}

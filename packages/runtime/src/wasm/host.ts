/**
 * @module wasm/host
 * One WASM tool invocation, on a fresh worker thread (a fresh instance and fresh
 * counters per call, as the seed's fresh Store): memory bounded by the module's
 * rewritten maximum and the worker's resourceLimits (its JS heap), time bounded by
 * `execution_timeout_secs` (the worker is terminated: `TimeoutExceeded`), host
 * functions served on this thread behind their capabilities (capabilities.ts). The
 * promise settles only after the worker has exited, so nothing is left running.
 */
import { MessageChannel, Worker } from 'node:worker_threads';
import { WORKER_SOURCE } from './_worker-source.js';
import { type HostOptions, hostState, type LogEntry } from './capabilities.js';
import { compileWasmTool } from './compile.js';
import { type WasmErrorKind, WasmToolError } from './errors.js';
import { maxPages, WASM_PAGE_BYTES } from './limits.js';

export interface WasmRunOptions extends HostOptions {
  /** The module file (absolute). */
  readonly module_path: string;
  readonly signal?: AbortSignal;
  /** Told the worker as soon as it exists (tests check it is gone afterwards). */
  readonly onWorker?: (worker: Worker) => void;
}

export type WasmOutcome =
  | { readonly ok: true; readonly output: string; readonly logs: readonly LogEntry[] }
  | {
      readonly ok: false;
      readonly kind: WasmErrorKind | null;
      readonly error: string;
      readonly logs: readonly LogEntry[];
    };

type Reply = { value: unknown } | { error: { kind: WasmErrorKind; message: string } };
type Message =
  | { type: 'call'; name: string; args: unknown[] }
  | { type: 'done'; ok: boolean; output: string }
  | { type: 'failed'; kind: WasmErrorKind; message: string; memory_bytes?: number | null };

/** `execute` the tool on `input` (JSON text), or `describe` it (its name, description, schema exports). */
export async function runWasm(
  op: 'execute' | 'describe',
  input: string,
  options: WasmRunOptions,
): Promise<WasmOutcome> {
  const state = hostState(options);
  const failure = (kind: WasmErrorKind, error: string): WasmOutcome => ({ ok: false, kind, error, logs: state.logs });
  const pages = maxPages(options.limits);
  let compiled: Awaited<ReturnType<typeof compileWasmTool>>;
  try {
    compiled = await compileWasmTool(options.module_path, pages);
  } catch (error) {
    if (error instanceof WasmToolError) return failure(error.kind, error.message);
    throw error;
  }
  const channel = new MessageChannel();
  const flag = new SharedArrayBuffer(4);
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    env: {},
    workerData: { module: compiled.module, op, input, port: channel.port2, imported: compiled.imported, flag },
    transferList: [channel.port2],
    resourceLimits: { maxOldGenerationSizeMb: 32, maxYoungGenerationSizeMb: 8, stackSizeMb: 4 },
  });
  options.onWorker?.(worker);
  const aborted = new AbortController();
  const reply = (message: Reply) => {
    channel.port1.postMessage(message);
    const shared = new Int32Array(flag);
    Atomics.store(shared, 0, 1);
    Atomics.notify(shared, 0);
  };
  const outcome = await new Promise<WasmOutcome>((settle) => {
    const secs = options.limits.execution_timeout_secs;
    const timer = setTimeout(
      () =>
        settle(failure('TimeoutExceeded', `ran past execution_timeout_secs (${secs} s); the worker was terminated`)),
      secs * 1000,
    );
    const onAbort = () => settle(failure('HostFunctionError', 'the invocation was aborted by the runtime'));
    options.signal?.addEventListener('abort', onAbort, { once: true });
    const finish = (value: WasmOutcome) => {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      settle(value);
    };
    worker.on('message', (message: Message) => {
      if (message.type === 'call') {
        state.call(message.name, message.args, aborted.signal).then(
          (value) => reply({ value }),
          (error: unknown) =>
            reply({
              error:
                error instanceof WasmToolError
                  ? { kind: error.kind, message: error.message }
                  : { kind: 'HostFunctionError', message: (error as Error).message },
            }),
        );
      } else if (message.type === 'done') {
        // ok false: the guest's own Err(text), a tool failure of no seed kind.
        const logs = state.logs;
        finish(
          message.ok
            ? { ok: true, output: message.output, logs }
            : { ok: false, kind: null, error: message.output, logs },
        );
      } else {
        finish(failure(message.kind, explain(message, pages)));
      }
    });
    worker.on('error', (error) => finish(failure('ExecutionTrapped', `the worker failed: ${error.message}`)));
    worker.on('exit', (code) =>
      finish(failure('ExecutionTrapped', `the worker exited (code ${code}) without an answer`)),
    );
  });
  aborted.abort();
  await worker.terminate();
  channel.port1.close();
  return outcome;
}

function explain(
  message: { kind: WasmErrorKind; message: string; memory_bytes?: number | null },
  pages: number,
): string {
  const limit = pages * WASM_PAGE_BYTES;
  if (message.kind === 'ExecutionTrapped' && message.memory_bytes != null && message.memory_bytes >= limit) {
    return `${message.message} (memory at max_memory_bytes: ${limit} bytes; growing past it failed)`;
  }
  return message.message;
}

/**
 * @module serve/serve
 * Serves colony's registry over stdio or Streamable HTTP until the client goes away or
 * the process is told to stop; the store is closed on the way out.
 *
 * Over stdio, given a way to open colony and the build-time handshake, nothing heavy
 * loads before the handshake is done: it is answered from data, and the MCP SDK, zod,
 * the tool definitions and SQLite load in the idle time after it (the warm-up of
 * `serveStdio`), so the client's first call costs about a warm one. With
 * COLONY_MCP_WARM=0 they load on the first tool call instead.
 */

import type { ToolCallOutcome, Toolset } from '@swarm/tools';
import { type McpHandshake, serveStdio, type ToolSource } from '@swarm/tools/mcp/stdio';
import pkg from '../../package.json' with { type: 'json' };
import type { Colony } from '../open-colony';
import { enableCompileCache } from './_compile-cache';
import { leanTierUp, leanV8, TierUpUnderLoad } from './_heap';
import { IdleScheduler } from './_idle';
import { IdleCheckpoint } from './_idle-checkpoint';
import { idleGcFrom } from './_idle-gc';
import { IdleIndexer } from './_idle-index';
import { resolveHttpToken } from './_token';

const INSTRUCTIONS =
  'colony: shared memory and task threads for coding agents. Search memory before work and hydrate only chosen ids with get_observations; post decisions and blockers to your task thread; claim files with task_claim_file before editing. Tools that are not read-only accept an optional idempotency_key for safe retries.';

export interface ServeOptions {
  /** An open colony, or how to open one: over stdio with `handshake`, on the first tool call. */
  readonly colony: Colony | (() => Promise<Colony>);
  readonly toolset?: Toolset;
  /**
   * The colony was opened with `allowExec` (`--allow-exec`): tools/list also lists the
   * `runtime` tools. Whatever this says, a runtime tool called by name reaches its
   * backend, which answers EXEC_NOT_ALLOWED unless exec is allowed (not UNKNOWN_TOOL).
   */
  readonly allowExec?: boolean;
  /** Serve Streamable HTTP on 127.0.0.1 instead of stdio. */
  readonly http?: { readonly port: number; readonly token?: string };
  /**
   * Build-time answers to the MCP handshake (`mcpHandshake` of `@swarm/tools/mcp`; the
   * app bundles embed them): a stdio server answers initialize and tools/list from them.
   */
  readonly handshake?: McpHandshake;
  /**
   * Where to say what is happening (stderr by default; never stdout, which is the wire).
   * Warnings of degraded parts reach the caller through openColony's onWarning.
   */
  readonly log?: (line: string) => void;
}

export interface ServeHandle {
  /** The HTTP endpoint, when serving HTTP. */
  readonly url?: string;
  readonly token?: string;
  /** Resolves when serving has stopped and the store is closed. */
  readonly done: Promise<void>;
  close(): Promise<void>;
}

export async function serveColony(options: ServeOptions): Promise<ServeHandle> {
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const toolset = options.toolset ?? 'all';
  const base = { toolset, version: pkg.version, instructions: INSTRUCTIONS };
  const withRuntime = options.allowExec === true && toolset !== 'runtime';

  if (options.http) {
    const colony = await opened(options.colony);
    const token = await resolveHttpToken(colony.home, options.http.token);
    const { serveHttp } = await import('@swarm/tools/mcp');
    const idle = new IdleScheduler();
    const handle = await serveHttp({
      ...base,
      registry: withIdle(eagerSource(colony, idle, log, withRuntime), idle),
      port: options.http.port,
      token,
    });
    log(`colony: MCP (Streamable HTTP) on ${handle.url}; send "Authorization: Bearer <token>"`);
    let finish!: () => void;
    const done = new Promise<void>((resolve) => {
      finish = resolve;
    });
    const close = async () => {
      await handle.close();
      idle.stop();
      await colony.close();
      finish();
    };
    return { url: handle.url, token, done, close };
  }

  leanV8();
  enableCompileCache();
  const handshake = options.handshake && withRuntime ? addRuntimeTools(options.handshake, toolset) : options.handshake;
  const lazy = typeof options.colony === 'function' && handshake?.tools[toolset] !== undefined;
  // The one client's declared roots (roots/list) confine the file tools, once colony is open.
  let declared: { roots: string[] | undefined } | undefined;
  const applyRoots = (colony: Colony) => {
    if (declared) colony.roots.setClientRoots(declared.roots);
  };
  const idle = new IdleScheduler();
  const idleGc = idleGcFrom();
  if (idleGc) idle.add(idleGc);
  const source = withLoadTierUp(
    withIdle(
      lazy
        ? lazySource(options.colony as () => Promise<Colony>, idle, log, withRuntime, applyRoots)
        : eagerSource(await opened(options.colony), idle, log, withRuntime),
      idle,
    ),
  );
  const handle = await serveStdio({
    ...base,
    registry: source,
    onClientRoots: (roots) => {
      declared = { roots };
      const colony = source.opened();
      if (colony) applyRoots(colony);
    },
    ...(handshake ? { handshake } : {}),
    warmUp: process.env.COLONY_MCP_WARM !== '0',
    fastPath: process.env.COLONY_MCP_FASTPATH !== '0',
    onError: (error) => log(`colony: MCP stdio: ${error.message}`),
  });
  const done = handle.closed.then(async () => {
    idle.stop();
    await (await source.settled())?.close();
  });
  return {
    done,
    close: async () => {
      await handle.close();
      await done;
    },
  };
}

async function opened(colony: ServeOptions['colony']): Promise<Colony> {
  return typeof colony === 'function' ? await colony() : colony;
}

interface ColonySource extends ToolSource {
  /** The colony, once opened. */
  opened(): Colony | undefined;
  /** The colony once an open under way (a warm-up's) has settled; undefined if none opened. */
  settled(): Promise<Colony | undefined>;
}

/** The handshake with the runtime tools appended to a toolset's tools/list (served with --allow-exec). */
function addRuntimeTools(handshake: McpHandshake, toolset: Toolset): McpHandshake {
  const own = handshake.tools[toolset];
  const runtime = handshake.tools.runtime;
  if (own === undefined || runtime === undefined || runtime === '[]') return handshake;
  const joined = own === '[]' ? runtime : `${own.slice(0, -1)},${runtime.slice(1)}`;
  return { ...handshake, tools: { ...handshake.tools, [toolset]: joined } };
}

/**
 * Calls the registry, and gives the idle scheduler colony's quiet-time work: the vector
 * backfill (serve/idle-index) and the WAL checkpoint (serve/idle-checkpoint). Runtime
 * tools are reachable from every toolset (their backend decides EXEC_NOT_ALLOWED).
 */
function eagerSource(
  colony: Colony,
  idle: IdleScheduler,
  log: (line: string) => void,
  withRuntime = false,
): ColonySource {
  idle.add(new IdleIndexer(colony, (error) => log(`colony: vector backfill: ${errorText(error)}`)));
  idle.add(new IdleCheckpoint(colony, (error) => log(`colony: WAL checkpoint: ${errorText(error)}`)));
  return {
    list: (toolset) => [
      ...colony.registry.list(toolset),
      ...(withRuntime && toolset !== 'runtime' ? colony.registry.list('runtime') : []),
    ],
    call(name, args, callOptions) {
      const runtime = colony.registry.get(name)?.surface === 'runtime';
      return colony.registry.call(name, args, runtime ? {} : callOptions);
    },
    opened: () => colony,
    settled: async () => colony,
  };
}

/** Each call tells the idle scheduler (serve/idle) when it begins and ends: quiet time is time without calls. */
function withIdle(source: ColonySource, idle: IdleScheduler): ColonySource {
  return {
    ...source,
    async call(name, args, callOptions) {
      idle.begin();
      try {
        return await source.call(name, args, callOptions);
      } finally {
        idle.end();
      }
    },
  };
}

/** Under sustained load the server gets V8's default tier-up back (serve/heap); only when it set a leaner one. */
function withLoadTierUp(source: ColonySource): ColonySource {
  if (!leanTierUp()) return source;
  const load = new TierUpUnderLoad();
  return {
    ...source,
    call(name, args, callOptions) {
      load.call();
      return source.call(name, args, callOptions);
    },
  };
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Opens colony on the first tool call, or before it when the stdio server warms up
 * after the handshake. A store that cannot open answers the first call with
 * INTERNAL_ERROR (and says why on the log, once: a warm-up's failure is reported by the
 * call that meets it); the next call tries again.
 */
function lazySource(
  open: () => Promise<Colony>,
  idle: IdleScheduler,
  log: (line: string) => void,
  withRuntime = false,
  onOpen?: (colony: Colony) => void,
): ColonySource {
  let colony: Colony | undefined;
  let opening: Promise<Colony> | undefined;
  let eager: ColonySource | undefined;
  const start = () => {
    opening ??= open().then((c) => {
      onOpen?.(c);
      return c;
    });
    return opening;
  };
  return {
    list(toolset) {
      if (!colony) throw new Error('colony is not open yet: tools/list is answered from the handshake');
      eager ??= eagerSource(colony, idle, log, withRuntime);
      return eager.list(toolset);
    },
    warm() {
      start().then(
        (c) => {
          colony ??= c;
          // The registry times each call; the first read of `performance` loads perf_hooks (~2 ms).
          performance.now();
          // In a later turn, so a call that arrived meanwhile goes first.
          setImmediate(() => c.warm());
        },
        () => undefined, // the first call meets the same failure and reports it
      );
    },
    async call(name, args, callOptions) {
      try {
        colony ??= await start();
      } catch (error) {
        opening = undefined;
        const message = `cannot open colony: ${error instanceof Error ? error.message : String(error)}`;
        log(`colony: ${message}`);
        return failure(name, message, error);
      }
      eager ??= eagerSource(colony, idle, log, withRuntime);
      return eager.call(name, args, callOptions);
    },
    opened: () => colony,
    settled: () => (opening ?? Promise.resolve(colony)).catch(() => undefined),
  };
}

/** A store refusal at open (STORE_CORRUPT...) keeps its code; anything else is INTERNAL_ERROR. */
async function failure(tool: string, message: string, cause?: unknown): Promise<ToolCallOutcome> {
  const { ColonyError, isColonyError, toErrorPayload } = await import('@swarm/tools');
  const error = isColonyError(cause)
    ? new ColonyError(cause.code, message, { details: cause.details, cause })
    : new ColonyError('INTERNAL_ERROR', message);
  const payload = toErrorPayload(error, tool, Date.now());
  return { ok: false, code: error.code, error: payload, text: JSON.stringify(payload) };
}

/**
 * @module open-colony
 * The composition root: opens the store, builds the domain services over it with the
 * side effects given (or real ones), and binds the tool registry to them. Everything
 * optional degrades with a warning instead of failing: a bad settings file, a
 * tokenizer that cannot load.
 */

import {
  type Clock,
  composeServices,
  createTokenCounter,
  DEFAULT_RATE_LIMITS,
  type Embedder,
  FileRoots,
  fileClock,
  type PlanScripts,
  planScripts,
  type RateLimitSettings,
  type RepoLocator,
  type SavingsRates,
  type SearchRanker,
  type Services,
  systemClock,
  type TokenCounter,
  tokenWorker,
} from '@swarm/coordination';
import {
  type CheckpointMode,
  type CheckpointResult,
  type ColonyStore,
  checkpoint,
  countObservations,
  countSessions,
  countTasks,
  indexPendingObservations,
  openStore,
  Store,
  type StoreRefusal,
  setAutoCheckpoint,
} from '@swarm/storage';
import {
  type AnthropicTool,
  type CallReceipt,
  COLONY_TOOLS,
  type ColonyBackend,
  ColonyError,
  getSchemas,
  type OpenAITool,
  type ToolArgs,
  type ToolCallOutcome,
  type ToolName,
  type ToolOutcome,
  ToolRegistry,
  type Toolset,
  toAnthropicTools,
  toOpenAITools,
} from '@swarm/tools';
import { locateRepo, type SandboxConfig, sandboxPolicy } from '@swarm/worktree';
import { defaultHivemindRoots, envRates } from './_env';
import { ReceiptQueue } from './_receipts';
import { runOnce } from './_run-once';
import { runOnceAsync } from './_run-once-async';
import { warmColony } from './_warm';
import { resolveDbPath, resolveHome } from './paths';
import { SAVINGS_REFERENCE } from './savings-reference';
import { loadSettings, type Settings } from './settings';
import { createRuntimeServices, type SwarmRunService } from './workspaces';

export interface OpenColonyOptions {
  /** Data home; default `$COLONY_HOME` or `~/.colony`. */
  readonly home?: string;
  /** Database file; default `<home>/colony.db`. `:memory:` for a throwaway store. */
  readonly dbPath?: string;
  /**
   * A store opened already (a PostgreSQL store: see `connectColony`); `dbPath` is then
   * ignored. The colony closes it on `close()`.
   */
  readonly store?: ColonyStore;
  /** Default: system time, or the epoch ms in the file `$COLONY_CLOCK_FILE` names (for tests). */
  readonly clock?: Clock;
  /** Overrides settings.json. */
  readonly settings?: Settings;
  /** Module the token counter loads (default `$COLONY_TOKENIZER_MODULE`, else gpt-tokenizer cl100k_base). */
  readonly tokenizerModule?: string;
  /** The token counter itself (default: the tokenizer above, loaded on first use). */
  readonly tokens?: TokenCounter;
  /** Write a receipt per tool call into mcp_metrics (default true). */
  readonly receipts?: boolean;
  /** Re-rank keyword search candidates; applied in order, after the built-in vector blend. */
  readonly rankers?: readonly SearchRanker[];
  /**
   * Turns text into vectors for hybrid search and task_suggest_approach (default: the
   * built-in hashing embedder, no network, no download). Pass your own model as an
   * object `{ id, dims, embed(texts) }` (synchronous, L2-normalized vectors), or a
   * function returning one, called on first use: if it throws, search falls back to
   * BM25 with a warning. `null` turns vectors off.
   */
  readonly embedder?: Embedder | (() => Embedder) | null;
  /**
   * Apply write proposals the arbiter approves (seed 000 `--allow-write`). Default:
   * `COLONY_ALLOW_WRITE=1` in the environment, else false (approvals are recorded only).
   */
  readonly allowWrite?: boolean;
  /**
   * Serve the runtime tools that run git and shell commands on the host (seed 004:
   * workspaces, exec_parallel, swarm_run; `--allow-exec`). Default: `COLONY_ALLOW_EXEC=1`
   * in the environment, else false (they answer EXEC_NOT_ALLOWED and run nothing).
   */
  readonly allowExec?: boolean;
  /** Rate limits of the framework tools, by tool name or `*`; merged over settings.json and the defaults. */
  readonly rateLimits?: RateLimitSettings;
  /** The OS sandbox of exec_parallel and swarm_run commands; default settings.json's `sandbox`, else off. */
  readonly sandbox?: SandboxConfig;
  /**
   * Folders the file tools (framework fs_*, spec tools, examples, the notepad pointer)
   * may read and write under, beside settings.json `roots`; default none. Beyond them,
   * the roots an MCP client declares (`colony.roots.setClientRoots`) or, when it
   * declares none, the repository of the process cwd. Others are ROOT_NOT_ALLOWED.
   */
  readonly roots?: readonly string[];
  /**
   * The only agent whose arbiter_decide calls are accepted (default settings.json
   * `arbiter`, else `COLONY_ARBITER`); without one, approved writes are never applied.
   */
  readonly arbiter?: string;
  /**
   * USD per 1M input/output tokens for savings_report when a call gives none. Default:
   * `COLONY_MCP_INPUT_USD_PER_1M` / `COLONY_MCP_OUTPUT_USD_PER_1M` from the environment.
   */
  readonly savingsRates?: SavingsRates;
  /** Told about every degraded optional part, as it happens. */
  readonly onWarning?: (message: string) => void;
  /** Told about unexpected errors inside tool calls (they answer INTERNAL_ERROR). */
  readonly onInternalError?: (error: unknown, tool: string) => void;
  /**
   * Repository roots hivemind reads when a call names none. Default:
   * `COLONY_HIVEMIND_REPO_ROOTS` split by the platform path delimiter, else the process cwd.
   */
  readonly hivemindRepoRoots?: readonly string[];
  /** How the IDE hooks find a path's repository and branch (default: isomorphic-git). */
  readonly locateRepo?: RepoLocator;
}

export interface ColonyStatus {
  readonly home: string;
  readonly db_path: string;
  readonly sessions: number;
  readonly observations: number;
  readonly tasks: number;
  readonly tools: number;
  readonly warnings: readonly string[];
}

/** Options of one `handleToolCall`: the toolset the tool must be in (default: any). */
export interface CallOptions {
  readonly toolset?: Toolset;
}

/**
 * A tool name given as a plain string (read from a model, a file, a wire): any string
 * but a literal tool name, which takes the typed overload, so wrong arguments to a known
 * tool fail to compile instead of falling through to `unknown`.
 */
export type UntypedName<S extends string> = S & (S extends ToolName ? (string extends S ? S : never) : S);

/** An open colony: its services (see `Services` of @swarm/coordination), the registry bound to them, and its settings. */
export interface Colony extends Omit<Services, 'plans' | 'framework' | 'mesh'> {
  readonly home: string;
  readonly dbPath: string;
  readonly clock: Clock;
  readonly settings: Settings;
  /** Optional parts that degraded, in plain words. */
  readonly warnings: readonly string[];
  readonly tokens: TokenCounter;
  /** Whether approved write proposals are applied to disk. */
  readonly allowWrite: boolean;
  /** Whether the runtime tools (workspaces, exec_parallel, swarm_run) may run commands. */
  readonly allowExec: boolean;
  /** Seed-004 swarm runs: `recover(repoRoot?)` is what `colony workspace clean` runs; `idle()` awaits running ones. */
  readonly swarmRuns: SwarmRunService;
  /** The roots file tools may work under; serving sets the MCP client's roots here. */
  readonly roots: FileRoots;
  /** Plans from scripts: publish (or dry-run) and list, validated and receipted like tool calls. */
  readonly plans: PlanScripts;
  readonly registry: ToolRegistry<ColonyBackend>;
  /**
   * Calls a tool by name; never throws. With a literal tool name the arguments and the
   * answer are typed from the tool's definition; any other string takes untrusted
   * arguments (validated all the same) and answers `ToolCallOutcome`.
   */
  handleToolCall<N extends ToolName>(name: N, args: ToolArgs<N>, options?: CallOptions): Promise<ToolOutcome<N>>;
  handleToolCall<S extends string>(
    name: UntypedName<S>,
    args: unknown,
    options?: CallOptions,
  ): Promise<ToolCallOutcome>;
  toOpenAITools(toolset?: Toolset): OpenAITool[];
  toAnthropicTools(toolset?: Toolset): AnthropicTool[];
  /** Seed 001's function-calling schemas (OpenAI format) of the seven context-mesh tools. */
  getSchemas(): OpenAITool[];
  status(): Promise<ColonyStatus>;
  /** A WAL checkpoint of the store (default PASSIVE: never waits); null once closed. */
  checkpoint(mode?: CheckpointMode): CheckpointResult | null;
  /** Sets the WAL size (pages) at which a commit checkpoints by itself (0: never); nothing once closed. */
  setAutoCheckpoint(pages: number): void;
  /**
   * Indexes for search the observations written since the last batch (SQLite indexes in
   * batches; a search does this first); resolves to how many. 0 once closed.
   */
  indexPending(): Promise<number>;
  /**
   * Prepares the hot paths of a first tool call without writing anything (reads that find
   * nothing, statements prepared, a sample validation): a server's idle-time warm-up.
   */
  warm(): void;
  close(): Promise<void>;
}

export function openColony(options: OpenColonyOptions = {}): Colony {
  const home = resolveHome(options.home);
  if (options.dbPath !== undefined && /^postgres(ql)?:\/\//i.test(options.dbPath)) {
    // Not a file name: never open a SQLite file named like the URL (the URL is not shown: it may hold a password).
    throw new ColonyError(
      'STORE_UNSUPPORTED',
      'a PostgreSQL URL was given to openColony, which opens SQLite files: connectColony() opens either',
    );
  }
  const dbPath = options.store ? options.store.location : resolveDbPath(home, options.dbPath);
  const clockFile = process.env.COLONY_CLOCK_FILE;
  const clock = options.clock ?? (clockFile ? fileClock(clockFile) : systemClock);
  const warnings: string[] = [];
  const warn = (message: string) => {
    warnings.push(message);
    options.onWarning?.(message);
  };

  let settings = options.settings;
  if (!settings) {
    const loaded = loadSettings(home);
    if (loaded.warning) warn(loaded.warning);
    settings = loaded.settings;
  }

  const tokenizerModule = options.tokenizerModule ?? process.env.COLONY_TOKENIZER_MODULE;
  const tokens =
    options.tokens ??
    createTokenCounter({
      ...(tokenizerModule ? { module: tokenizerModule } : {}),
      onWarning: warn,
    });
  const store: ColonyStore =
    options.store ?? openStore({ path: dbPath, ...busyTimeoutFromEnv(), refuse: refuseAsToolError });
  if (store.refusal) warn(store.refusal.message);
  // Receipts are buffered and written off the hot path; observations written before the
  // tokenizer is loaded here get their exact counts with them (see _receipts.ts).
  const receipts =
    options.receipts === false
      ? null
      : new ReceiptQueue(store, tokens, () => tokenWorker(tokenizerModule), options.onInternalError);
  const roots = new FileRoots({ fixed: [...(settings.roots ?? []), ...(options.roots ?? [])] });
  const ctx = {
    store,
    clock,
    tokens,
    settings,
    roots,
    ...(receipts ? { deferTokenCount: (id: number, content: string) => receipts.deferCount(id, content) } : {}),
  };
  const allowWrite = options.allowWrite ?? process.env.COLONY_ALLOW_WRITE === '1';
  const arbiter = options.arbiter ?? settings.arbiter ?? process.env.COLONY_ARBITER;
  const services = composeServices(ctx, {
    ...(options.embedder !== undefined ? { embedder: options.embedder } : {}),
    searchAlpha: settings.search.alpha,
    ...(options.rankers ? { rankers: options.rankers } : {}),
    laneRepoRoots: options.hivemindRepoRoots ?? defaultHivemindRoots(),
    locateRepo: options.locateRepo ?? locateRepo,
    forageOnSessionStart: settings.foraging.scanOnSessionStart,
    framework: {
      allowWrite,
      ...(arbiter ? { arbiter } : {}),
      rateLimits: { ...DEFAULT_RATE_LIMITS, ...settings.rateLimits, ...options.rateLimits },
    },
    savingsRates: options.savingsRates ?? envRates(warn),
    savingsReference: SAVINGS_REFERENCE,
    onWarning: warn,
  });
  const allowExec = options.allowExec ?? process.env.COLONY_ALLOW_EXEC === '1';
  const runtime = createRuntimeServices({
    store,
    clock,
    allowExec,
    rateLimits: { ...DEFAULT_RATE_LIMITS, ...settings.rateLimits, ...options.rateLimits },
    sandbox: sandboxPolicy(options.sandbox ?? settings.sandbox, 'off'),
  });
  const backend: ColonyBackend = { ...services, workspaces: runtime.workspaces, swarmRuns: runtime.swarmRuns };

  const registry: ToolRegistry<ColonyBackend> = new ToolRegistry(COLONY_TOOLS, backend, {
    now: () => clock.now(),
    idempotent: (tool, key, argsHash, fn) => runOnce(store, clock, tool, key, argsHash, fn),
    idempotentAsync: (tool, key, argsHash, fn) => runOnceAsync(store, clock, tool, key, argsHash, fn),
    ...(receipts
      ? {
          recordReceipt: (r: CallReceipt) => receipts.push(r),
          // A read may read receipts (task_list counts them): it sees every earlier one. A
          // mutating call needs no flush: buffered receipts ride in its write transaction.
          beforeCall: async (tool: string) => {
            if (registry.get(tool)?.mutates === false) await receipts.flush();
          },
        }
      : {}),
    ...(options.onInternalError ? { onInternalError: options.onInternalError } : {}),
  });

  return {
    ...services,
    home,
    dbPath,
    clock,
    settings,
    warnings,
    tokens,
    allowWrite,
    allowExec,
    swarmRuns: runtime.swarmRuns,
    roots,
    plans: planScripts((name, args) => registry.call(name, args)),
    registry,
    handleToolCall: ((name: string, args: unknown, callOptions?: CallOptions) =>
      registry.call(name, args, callOptions)) as Colony['handleToolCall'],
    toOpenAITools: (toolset) => toOpenAITools(registry, toolset),
    toAnthropicTools: (toolset) => toAnthropicTools(registry, toolset),
    getSchemas,
    status: async () => ({
      home,
      db_path: dbPath,
      sessions: await countSessions(store),
      observations: await countObservations(store),
      tasks: await countTasks(store),
      tools: registry.list('all').length + registry.list('framework').length + registry.list('runtime').length,
      warnings: [...warnings],
    }),
    // The WAL jobs and the warm-up are SQLite's: a PostgreSQL server runs its own.
    checkpoint: (mode = 'PASSIVE') => (store instanceof Store && !store.closed ? checkpoint(store, mode) : null),
    setAutoCheckpoint: (pages) => {
      if (store instanceof Store && !store.closed) setAutoCheckpoint(store, pages);
    },
    indexPending: async () => (store.closed ? 0 : indexPendingObservations(store)),
    warm: () => {
      if (store instanceof Store) warmColony(store, registry);
    },
    close: async () => {
      if (store.closed) return;
      await receipts?.flush(true);
      await store.close();
    },
  };
}

/** Store refusals (STORE_BUSY, STORE_READ_ONLY, STORE_CORRUPT, STORE_TOO_NEW) are tool errors. */
export function refuseAsToolError(refusal: StoreRefusal, cause?: unknown): ColonyError {
  return new ColonyError(refusal.code, refusal.message, { details: refusal.details, cause });
}

/** `COLONY_BUSY_TIMEOUT_MS`: how long a write waits for another writer's lock (default 15 s). */
export function busyTimeoutFromEnv(): { busyTimeoutMs?: number } {
  const ms = Number(process.env.COLONY_BUSY_TIMEOUT_MS);
  return Number.isInteger(ms) && ms > 0 ? { busyTimeoutMs: ms } : {};
}

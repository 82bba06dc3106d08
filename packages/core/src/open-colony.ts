/**
 * @module open-colony
 * The composition root: opens the store, builds the domain services over it with the
 * side effects given (or real ones), and binds the tool registry to them. Everything
 * optional degrades with a warning instead of failing: a bad settings file, a
 * tokenizer that cannot load.
 */

import { delimiter } from 'node:path';
import {
  AttentionService,
  BatonService,
  ClaimService,
  type Clock,
  createMeshBackend,
  createSwarmBackend,
  createTokenCounter,
  DEFAULT_RATE_LIMITS,
  type Embedder,
  ExamplesService,
  fileClock,
  HookService,
  hashingEmbedder,
  hybridRanker,
  LaneService,
  LinkService,
  MemoryService,
  MessageService,
  PlanService,
  ProfileService,
  ProposalService,
  QueenService,
  type RateLimitSettings,
  ReadyService,
  type RepoLocator,
  RescueService,
  type SavingsRates,
  SavingsService,
  type SearchRanker,
  SpecService,
  StartupService,
  SuggestService,
  serviceAttention,
  serviceClaims,
  specServiceLane,
  systemClock,
  TaskService,
  type TokenCounter,
  tokenWorker,
  VectorIndex,
} from '@swarm/coordination';
import {
  countObservations,
  countSessions,
  countTasks,
  findIdempotentResult,
  openStore,
  type Store,
  saveIdempotentResult,
} from '@swarm/storage';
import {
  type AnthropicTool,
  type CallReceipt,
  COLONY_TOOLS,
  type ColonyBackend,
  ColonyError,
  getSchemas,
  HIVEMIND_REPO_ROOTS_ENV,
  type OpenAITool,
  type ToolCallOutcome,
  ToolRegistry,
  type Toolset,
  toAnthropicTools,
  toOpenAITools,
} from '@swarm/tools';
import { locateRepo } from '@swarm/worktree';
import { ReceiptQueue } from './_receipts';
import { resolveDbPath, resolveHome } from './paths';
import { type PlanScripts, planScripts } from './plans';
import { SAVINGS_REFERENCE } from './savings-reference';
import { loadSettings, type Settings } from './settings';
import { createRuntimeServices, type SwarmRunService } from './workspaces';

export interface OpenColonyOptions {
  /** Data home; default `$COLONY_HOME` or `~/.colony`. */
  readonly home?: string;
  /** Database file; default `<home>/colony.db`. `:memory:` for a throwaway store. */
  readonly dbPath?: string;
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

export interface Colony {
  readonly home: string;
  readonly dbPath: string;
  readonly clock: Clock;
  readonly settings: Settings;
  /** Optional parts that degraded, in plain words. */
  readonly warnings: readonly string[];
  readonly tokens: TokenCounter;
  readonly memory: MemoryService;
  /** The live lane map: sessions on task threads and their activity. */
  readonly lanes: LaneService;
  /** startup_panel and bridge_status: lanes, attention and ready work composed into one card. */
  readonly startup: StartupService;
  /** Observation vectors: `backfill()` embeds every row without one (what `colony memory index` runs). */
  readonly vectors: VectorIndex;
  readonly suggest: SuggestService;
  readonly tasks: TaskService;
  readonly messages: MessageService;
  readonly links: LinkService;
  readonly claims: ClaimService;
  readonly batons: BatonService;
  /** attention_inbox: what needs a session now (`inbox(args)`), for startup surfaces to compose. */
  readonly attention: AttentionService;
  /** Whether approved write proposals are applied to disk. */
  readonly allowWrite: boolean;
  /** Whether the runtime tools (workspaces, exec_parallel, swarm_run) may run commands. */
  readonly allowExec: boolean;
  /** Seed-004 swarm runs: `recover(repoRoot?)` is what `colony workspace clean` runs; `idle()` awaits running ones. */
  readonly swarmRuns: SwarmRunService;
  /** The IDE hooks: what `colony hook run` does for each event. */
  readonly hooks: HookService;
  /** Plans from scripts: publish (or dry-run) and list, validated and receipted like tool calls. */
  readonly plans: PlanScripts;
  readonly proposals: ProposalService;
  readonly specs: SpecService;
  readonly profiles: ProfileService;
  readonly rescue: RescueService;
  readonly ready: ReadyService;
  readonly queen: QueenService;
  /** savings_report's service; `timeline(hours)` sums receipts per hour (the viewer's chart). */
  readonly savings: SavingsService;
  /** Example projects under <repo_root>/examples/: `scan(repoRoot)` is what `colony foraging scan` runs. */
  readonly examples: ExamplesService;
  readonly registry: ToolRegistry<ColonyBackend>;
  /** Calls a tool by name with untrusted arguments; never throws. */
  handleToolCall(name: string, args: unknown, options?: { toolset?: Toolset }): Promise<ToolCallOutcome>;
  toOpenAITools(toolset?: Toolset): OpenAITool[];
  toAnthropicTools(toolset?: Toolset): AnthropicTool[];
  /** Seed 001's function-calling schemas (OpenAI format) of the seven context-mesh tools. */
  getSchemas(): OpenAITool[];
  status(): ColonyStatus;
  close(): void;
}

export function openColony(options: OpenColonyOptions = {}): Colony {
  const home = resolveHome(options.home);
  const dbPath = resolveDbPath(home, options.dbPath);
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
  const store = openStore({ path: dbPath });
  const ctx = { store, clock, tokens, settings };
  const vectors = new VectorIndex(store, {
    embedder: options.embedder === undefined ? hashingEmbedder : options.embedder,
    onWarning: warn,
  });
  // alpha 1 is keywords alone: no blend, and no deeper candidate pool for it.
  const blend = settings.search.alpha < 1 ? [hybridRanker(vectors, settings.search.alpha)] : [];
  const memory = new MemoryService(ctx, { rankers: [...blend, ...(options.rankers ?? [])] });
  const suggest = new SuggestService(ctx, { index: vectors });
  const lanes = new LaneService(ctx, {
    memory,
    defaultRepoRoots: options.hivemindRepoRoots ?? defaultHivemindRoots(),
  });
  const tasks = new TaskService(ctx);
  const messages = new MessageService(ctx);
  const links = new LinkService(ctx);
  const claims = new ClaimService(ctx);
  const batons = new BatonService(ctx);
  const attention = new AttentionService(ctx, { messages, batons });
  const examples = new ExamplesService(ctx);
  const hooks = new HookService(ctx, {
    tasks,
    locateRepo: options.locateRepo ?? locateRepo,
    attention: serviceAttention(ctx, { messages, batons }),
    claims: serviceClaims(claims),
    ...(settings.foraging.scanOnSessionStart
      ? {
          forage: (root: string, sessionId: string) =>
            examples.scan(root, { sessionId }).examples.reduce((n, e) => n + e.patterns_written, 0),
        }
      : {}),
  });
  const allowWrite = options.allowWrite ?? process.env.COLONY_ALLOW_WRITE === '1';
  const swarm = createSwarmBackend(ctx, {
    allowWrite,
    rateLimits: { ...DEFAULT_RATE_LIMITS, ...settings.rateLimits, ...options.rateLimits },
  });
  const allowExec = options.allowExec ?? process.env.COLONY_ALLOW_EXEC === '1';
  const runtime = createRuntimeServices({
    store,
    clock,
    allowExec,
    rateLimits: { ...DEFAULT_RATE_LIMITS, ...settings.rateLimits, ...options.rateLimits },
  });
  const mesh = createMeshBackend(ctx);
  const proposals = new ProposalService(ctx);
  const specs = new SpecService(ctx, { tasks, proposals });
  const plans = new PlanService(ctx, { specs: specServiceLane(specs) });
  const profiles = new ProfileService(ctx);
  const rescue = new RescueService(ctx);
  const ready = new ReadyService(ctx, { plans, profiles, messages, batons });
  const queen = new QueenService(ctx, { plans });
  const startup = new StartupService(ctx, { lanes, attention, ready });
  const savings = new SavingsService(ctx, {
    rates: options.savingsRates ?? envRates(warn),
    reference: SAVINGS_REFERENCE,
  });
  const backend: ColonyBackend = {
    memory,
    lanes,
    startup,
    tasks,
    messages,
    links,
    claims,
    batons,
    swarm,
    mesh,
    plans,
    proposals,
    specs,
    profiles,
    rescue,
    ready,
    queen,
    savings,
    suggest,
    attention,
    examples,
    workspaces: runtime.workspaces,
    swarmRuns: runtime.swarmRuns,
  };

  const receipts =
    options.receipts === false
      ? null
      : new ReceiptQueue(store, tokens, tokenWorker(tokenizerModule), options.onInternalError);
  const registry = new ToolRegistry(COLONY_TOOLS, backend, {
    now: () => clock.now(),
    idempotent: (tool, key, argsHash, fn) => runOnce(store, clock, tool, key, argsHash, fn),
    ...(receipts ? { recordReceipt: (r: CallReceipt) => receipts.push(r), beforeCall: () => receipts.flush() } : {}),
    ...(options.onInternalError ? { onInternalError: options.onInternalError } : {}),
  });

  return {
    home,
    dbPath,
    clock,
    settings,
    warnings,
    tokens,
    memory,
    lanes,
    startup,
    vectors,
    suggest,
    tasks,
    messages,
    links,
    claims,
    batons,
    attention,
    allowWrite,
    allowExec,
    swarmRuns: runtime.swarmRuns,
    hooks,
    plans: planScripts((name, args) => registry.call(name, args)),
    proposals,
    specs,
    profiles,
    rescue,
    ready,
    queen,
    savings,
    examples,
    registry,
    handleToolCall: (name, args, callOptions) => registry.call(name, args, callOptions),
    toOpenAITools: (toolset) => toOpenAITools(registry, toolset),
    toAnthropicTools: (toolset) => toAnthropicTools(registry, toolset),
    getSchemas,
    status: () => ({
      home,
      db_path: dbPath,
      sessions: countSessions(store),
      observations: countObservations(store),
      tasks: countTasks(store),
      tools: registry.list('all').length + registry.list('framework').length + registry.list('runtime').length,
      warnings: [...warnings],
    }),
    close: () => {
      if (store.closed) return;
      receipts?.flush();
      store.close();
    },
  };
}

/** `COLONY_HIVEMIND_REPO_ROOTS` split by the path delimiter, else the process's working directory. */
function defaultHivemindRoots(): string[] {
  const roots = (process.env[HIVEMIND_REPO_ROOTS_ENV] ?? '').split(delimiter).filter((r) => r.trim() !== '');
  return roots.length > 0 ? roots : [process.cwd()];
}

/** Rates from `COLONY_MCP_{INPUT,OUTPUT}_USD_PER_1M`; a value that is not a number >= 0 is ignored with a warning. */
function envRates(warn: (message: string) => void): SavingsRates {
  const read = (name: string): number | undefined => {
    const raw = process.env[name];
    if (raw === undefined || raw.trim() === '') return undefined;
    const value = Number(raw);
    if (Number.isFinite(value) && value >= 0) return value;
    warn(`${name}="${raw}" is not a price (a number >= 0): savings_report ignores it`);
    return undefined;
  };
  const input = read('COLONY_MCP_INPUT_USD_PER_1M');
  const output = read('COLONY_MCP_OUTPUT_USD_PER_1M');
  return { ...(input !== undefined ? { input } : {}), ...(output !== undefined ? { output } : {}) };
}

/** Runs a mutating call once per (tool, key): the lookup, the call and the record commit together. */
function runOnce<T>(store: Store, clock: Clock, tool: string, key: string, argsHash: string, fn: () => T): T {
  return store.write(() => {
    const prior = findIdempotentResult(store, tool, key);
    if (prior) {
      if (prior.argsHash !== argsHash) {
        throw new ColonyError(
          'IDEMPOTENCY_KEY_REUSED',
          `idempotency_key "${key}" was already used for ${tool} with different arguments`,
          { details: { idempotency_key: key } },
        );
      }
      return prior.result as T;
    }
    const result = fn();
    saveIdempotentResult(store, tool, key, argsHash, result, clock.now());
    return result;
  });
}

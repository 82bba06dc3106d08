/**
 * Test fixture: the coordination services over a real SQLite file in a temp folder,
 * a manual clock, and a registry of the contract tools bound to them, so calls go
 * through the same validation and error shape as every real surface.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { countObservations, openStore, type Store } from '@swarm/storage';
import { COLONY_TOOLS, type ToolErrorPayload, ToolRegistry } from '@swarm/tools';
import {
  AttentionService,
  BatonService,
  ClaimService,
  type CoordinationSettings,
  createMeshBackend,
  createSwarmBackend,
  createTokenCounter,
  DEFAULT_COORDINATION_SETTINGS,
  ExamplesService,
  hashingEmbedder,
  LaneService,
  LinkService,
  type ManualClock,
  MemoryService,
  MessageService,
  manualClock,
  PlanService,
  ProfileService,
  ProposalService,
  QueenService,
  ReadyService,
  RescueService,
  type SavingsRates,
  type SavingsReference,
  SavingsService,
  type SpecFileOps,
  SpecService,
  StartupService,
  SuggestService,
  type SwarmOptions,
  specServiceLane,
  TaskService,
  VectorIndex,
} from '../src/index';

export const START = Date.UTC(2026, 0, 1);

export interface Fixture {
  readonly dir: string;
  readonly store: Store;
  readonly clock: ManualClock;
  readonly memory: MemoryService;
  readonly lanes: LaneService;
  readonly tasks: TaskService;
  readonly messages: MessageService;
  readonly claims: ClaimService;
  readonly batons: BatonService;
  readonly attention: AttentionService;
  readonly plans: PlanService;
  readonly proposals: ProposalService;
  readonly specs: SpecService;
  readonly profiles: ProfileService;
  readonly rescue: RescueService;
  readonly ready: ReadyService;
  readonly queen: QueenService;
  /** Vectors with the default hashing embedder (nothing is embedded until `index.backfill()`). */
  readonly index: VectorIndex;
  readonly suggest: SuggestService;
  readonly examples: ExamplesService;
  /** Calls a tool; throws with the payload when it answers an error. */
  ok<T = Record<string, unknown>>(tool: string, args: Record<string, unknown>): Promise<T>;
  /** Calls a tool that must fail; returns the error payload. */
  fail(tool: string, args: Record<string, unknown>): Promise<ToolErrorPayload>;
  observations(): number;
  /** A fresh, existing folder to use as a repository root. */
  repo(name: string): string;
  close(): void;
}

export interface FixtureOptions extends SwarmOptions {
  /** File operations of the spec service (inject failures here). */
  readonly specFs?: SpecFileOps;
  /** savings_report's configured rates and reference model. */
  readonly savingsRates?: SavingsRates;
  readonly savingsReference?: SavingsReference;
  /** Repository roots hivemind reads when a call names none. */
  readonly laneRepoRoots?: readonly string[];
}

export function createFixture(
  settings: CoordinationSettings = DEFAULT_COORDINATION_SETTINGS,
  options: FixtureOptions = {},
): Fixture {
  const dir = mkdtempSync(join(tmpdir(), 'colony-coordination-'));
  const store = openStore({ path: join(dir, 'colony.db') });
  const clock = manualClock(START);
  const ctx = { store, clock, tokens: createTokenCounter(), settings };
  const memory = new MemoryService(ctx);
  const lanes = new LaneService(ctx, {
    memory,
    ...(options.laneRepoRoots ? { defaultRepoRoots: options.laneRepoRoots } : {}),
  });
  const tasks = new TaskService(ctx);
  const messages = new MessageService(ctx);
  const links = new LinkService(ctx);
  const claims = new ClaimService(ctx);
  const batons = new BatonService(ctx);
  const attention = new AttentionService(ctx, { messages, batons });
  const swarm = createSwarmBackend(ctx, options);
  const mesh = createMeshBackend(ctx);
  const proposals = new ProposalService(ctx);
  const specs = new SpecService(ctx, { tasks, proposals, ...(options.specFs ? { fs: options.specFs } : {}) });
  const plans = new PlanService(ctx, { specs: specServiceLane(specs) });
  const profiles = new ProfileService(ctx);
  const rescue = new RescueService(ctx);
  const ready = new ReadyService(ctx, { plans, profiles, messages, batons });
  const queen = new QueenService(ctx, { plans });
  const startup = new StartupService(ctx, { lanes, attention, ready });
  const savings = new SavingsService(ctx, {
    ...(options.savingsRates ? { rates: options.savingsRates } : {}),
    reference: options.savingsReference ?? { note: 'test model', rows: [] },
  });
  const index = new VectorIndex(store, { embedder: hashingEmbedder() });
  const suggest = new SuggestService(ctx, { index });
  const examples = new ExamplesService(ctx);
  const registry = new ToolRegistry(
    COLONY_TOOLS,
    {
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
    },
    { now: () => clock.now() },
  );
  return {
    dir,
    store,
    clock,
    memory,
    lanes,
    tasks,
    messages,
    claims,
    batons,
    attention,
    plans,
    proposals,
    specs,
    profiles,
    rescue,
    ready,
    queen,
    index,
    suggest,
    examples,
    async ok<T>(tool: string, args: Record<string, unknown>) {
      const outcome = await registry.call(tool, args);
      if (!outcome.ok) throw new Error(`${tool} failed: ${outcome.text}`);
      return outcome.value as T;
    },
    async fail(tool, args) {
      const outcome = await registry.call(tool, args);
      if (outcome.ok) throw new Error(`${tool} should have failed, answered ${outcome.text}`);
      return outcome.error;
    },
    observations: () => countObservations(store),
    repo(name) {
      const path = join(dir, name);
      mkdirSync(path, { recursive: true });
      return path;
    },
    close() {
      store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Opens (or joins) the `main` thread of `repoRoot` for `claude-1`; returns its task id. */
export async function mainThread(fx: Fixture, repoRoot: string): Promise<number> {
  const thread = await fx.ok<{ task_id: number }>('task_thread', {
    repo_root: repoRoot,
    branch: 'main',
    session_id: 'claude-1',
    agent: 'claude',
  });
  return thread.task_id;
}

/**
 * @module compose
 * The service graph, built once: every domain service over one context, each wired to
 * the services it reads. `openColony()` (@swarm/core) and the coordination test fixture
 * both build colony through this, so the graph has one definition. The result holds
 * every field of the tools' `ColonyBackend`, so it binds a `ToolRegistry` as it is.
 */

import { AttentionService } from './attention/attention-service';
import { BatonService } from './batons/baton-service';
import { ClaimService } from './claims/claim-service';
import type { DomainContext } from './context';
import { ExamplesService } from './foraging/examples-service';
import { createFrameworkBackend, type FrameworkOptions } from './framework/framework-service';
import { HookService, type RepoLocator } from './hooks/hook-service';
import { serviceAttention, serviceClaims } from './hooks/service-ports';
import { IterationService } from './iterations/iteration-service';
import { LaneService } from './lanes/lane-service';
import { StartupService } from './lanes/startup-service';
import { LinkService } from './links/link-service';
import { type Embedder, hashingEmbedder } from './memory/embedder';
import { hybridRanker } from './memory/hybrid-ranker';
import { MemoryService, type SearchRanker } from './memory/memory-service';
import { VectorIndex } from './memory/vector-index';
import { createMeshBackend } from './mesh/mesh-service';
import { MessageService } from './messages/message-service';
import { PlanService } from './plans/plan-service';
import { specServiceLane } from './plans/spec-lanes';
import { ProfileService } from './profiles/profile-service';
import { ProposalService } from './proposals/proposal-service';
import { QueenService } from './queen/queen-service';
import { ReadyService } from './ready/ready-service';
import { RescueService } from './rescue/rescue-service';
import { type SavingsRates, type SavingsReference, SavingsService } from './savings/savings-service';
import type { SpecFileOps } from './specs/spec-files';
import { SpecService } from './specs/spec-service';
import { SuggestService } from './suggest/suggest-service';
import { TaskService } from './tasks/task-service';
import { WorkflowService } from './workflows/workflow-service';

/** What the graph takes besides the context; everything is optional. */
export interface ServiceDeps {
  /** Text to vectors (default: the hashing embedder; a function is called on first use; null turns vectors off). */
  readonly embedder?: Embedder | (() => Embedder) | null;
  /** Keyword weight of the hybrid blend (default 1: keywords alone, no blend). */
  readonly searchAlpha?: number;
  /** Re-rank keyword search candidates, after the vector blend. */
  readonly rankers?: readonly SearchRanker[];
  /** Repository roots hivemind reads when a call names none (default: none). */
  readonly laneRepoRoots?: readonly string[];
  /** How the IDE hooks find a path's repository and branch (default: none is found). */
  readonly locateRepo?: RepoLocator;
  /** Index `<repo_root>/examples/` when an IDE session starts (default false). */
  readonly forageOnSessionStart?: boolean;
  /** Seed-000 framework tools: whether approved writes reach the disk, and rate limits. */
  readonly framework?: FrameworkOptions;
  /** File operations of the spec service (tests inject failures here). */
  readonly specFs?: SpecFileOps;
  /** savings_report's configured rates and reference model. */
  readonly savingsRates?: SavingsRates;
  readonly savingsReference?: SavingsReference;
  /** Told about every degraded optional part (an embedder that cannot load). */
  readonly onWarning?: (message: string) => void;
}

/** Every domain service of one colony. */
export interface Services {
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
  /** Example projects under <repo_root>/examples/: `scan(repoRoot)` is what `colony foraging scan` runs. */
  readonly examples: ExamplesService;
  /** The IDE hooks: what `colony hook run` does for each event. */
  readonly hooks: HookService;
  /** Seed-000 framework tools (workspace files, write proposals, shared context, work queue); the key is the tools' `ColonyBackend.framework`. */
  readonly framework: ReturnType<typeof createFrameworkBackend>;
  /** Seed-001 context mesh and agent messages. */
  readonly mesh: ReturnType<typeof createMeshBackend>;
  readonly proposals: ProposalService;
  readonly specs: SpecService;
  readonly plans: PlanService;
  readonly profiles: ProfileService;
  readonly rescue: RescueService;
  readonly ready: ReadyService;
  readonly queen: QueenService;
  /** savings_report's service; `timeline(hours)` sums receipts per hour (the viewer's chart). */
  readonly savings: SavingsService;
  /** Workflow runs and their stages (`colony swarm workflow`). */
  readonly workflows: WorkflowService;
  /** Iteration runs and their iterations (`colony swarm iterate`). */
  readonly iterations: IterationService;
}

const noRepo: RepoLocator = async () => null;

/** Builds the service graph over `ctx`. */
export function composeServices(ctx: DomainContext, deps: ServiceDeps = {}): Services {
  const vectors = new VectorIndex(ctx.store, {
    embedder: deps.embedder === undefined ? hashingEmbedder : deps.embedder,
    ...(deps.onWarning ? { onWarning: deps.onWarning } : {}),
  });
  // alpha 1 is keywords alone: no blend, and no deeper candidate pool for it.
  const alpha = deps.searchAlpha ?? 1;
  const blend = alpha < 1 ? [hybridRanker(vectors, alpha)] : [];
  const memory = new MemoryService(ctx, { rankers: [...blend, ...(deps.rankers ?? [])] });
  const tasks = new TaskService(ctx);
  const messages = new MessageService(ctx);
  const claims = new ClaimService(ctx);
  const batons = new BatonService(ctx);
  const attention = new AttentionService(ctx, { messages, batons });
  const examples = new ExamplesService(ctx);
  const forage = async (root: string, sessionId: string) =>
    (await examples.scan(root, { sessionId })).examples.reduce((n, e) => n + e.patterns_written, 0);
  const proposals = new ProposalService(ctx);
  const specs = new SpecService(ctx, { tasks, proposals, ...(deps.specFs ? { fs: deps.specFs } : {}) });
  const plans = new PlanService(ctx, { specs: specServiceLane(specs) });
  const profiles = new ProfileService(ctx);
  const ready = new ReadyService(ctx, { plans, profiles, messages, batons });
  const lanes = new LaneService(ctx, {
    memory,
    ...(deps.laneRepoRoots ? { defaultRepoRoots: deps.laneRepoRoots } : {}),
  });
  return {
    memory,
    lanes,
    startup: new StartupService(ctx, { lanes, attention, ready }),
    vectors,
    suggest: new SuggestService(ctx, { index: vectors }),
    tasks,
    messages,
    links: new LinkService(ctx),
    claims,
    batons,
    attention,
    examples,
    hooks: new HookService(ctx, {
      tasks,
      locateRepo: deps.locateRepo ?? noRepo,
      attention: serviceAttention(ctx, { messages, batons }),
      claims: serviceClaims(claims),
      ...(deps.forageOnSessionStart ? { forage } : {}),
    }),
    framework: createFrameworkBackend(ctx, deps.framework),
    mesh: createMeshBackend(ctx),
    proposals,
    specs,
    plans,
    profiles,
    rescue: new RescueService(ctx),
    ready,
    queen: new QueenService(ctx, { plans }),
    savings: new SavingsService(ctx, {
      ...(deps.savingsRates ? { rates: deps.savingsRates } : {}),
      reference: deps.savingsReference ?? { note: 'none configured', rows: [] },
    }),
    workflows: new WorkflowService(ctx),
    iterations: new IterationService(ctx),
  };
}

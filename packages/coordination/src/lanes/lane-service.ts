/**
 * @module lanes/lane-service
 * The live lane map. A lane is one session on one task thread of a repository in
 * scope, read from colony's own tables (session heartbeats, participants, claims,
 * edits), never from runtime files. Its activity is laneActivity's, at read time.
 * `lanes()` is what other services (attention, the viewer, startup cards) compose;
 * `hivemind` and `context` answer the two MCP tools.
 */
import { type LaneRow, lanesInScope, lanesOfSession, liveClaimsOfSessions } from '@swarm/storage';
import type {
  HivemindContextInput,
  HivemindContextResult,
  HivemindInput,
  HivemindLane,
  HivemindResult,
  LaneBackend,
} from '@swarm/tools';
import { LANE_DEAD_MINUTES, LANE_SOURCE } from '@swarm/tools';
import { withBudget } from '../budget';
import type { DomainContext } from '../context';
import type { MemoryService } from '../memory/memory-service';
import { normalizeRepoRoot } from '../tasks/task-service';
import { hivemindContext } from './hivemind-context';
import { countActivities, type Lane, type LaneClaims, lockedFilePreview, toLane } from './lane';

const MINUTE = 60_000;
/** Most lanes read per call with include_stale (the newest heartbeats first). */
export const LANE_SCAN_LIMIT = 500;
/** Most of one session's lanes read (sessionLanes). */
const SESSION_LANE_LIMIT = 50;

export interface LaneQuery {
  /** Normalised repository roots (see `scope`). */
  readonly repoRoots: readonly string[];
  /** Include dead lanes (default false: only sessions heartbeating within the hour are read). */
  readonly includeStale?: boolean;
}

/** Scope arguments as the tools take them. */
export interface ScopeArgs {
  readonly repo_root?: string | undefined;
  readonly repo_roots?: readonly string[] | undefined;
}

export interface LaneServiceDeps {
  readonly memory: MemoryService;
  /** Roots used when a call names none (the server's cwd or COLONY_HIVEMIND_REPO_ROOTS). */
  readonly defaultRepoRoots?: readonly string[];
}

export class LaneService implements LaneBackend {
  readonly #ctx: DomainContext;
  readonly #deps: LaneServiceDeps;

  constructor(ctx: DomainContext, deps: LaneServiceDeps) {
    this.#ctx = ctx;
    this.#deps = deps;
  }

  /** The normalised, de-duplicated repository roots a call is about. */
  scope(args: ScopeArgs): string[] {
    const given = [...(args.repo_root === undefined ? [] : [args.repo_root]), ...(args.repo_roots ?? [])];
    const roots = given.length > 0 ? given : (this.#deps.defaultRepoRoots ?? []);
    return [...new Set(roots.map(normalizeRepoRoot))];
  }

  /**
   * Lanes in scope with their activity now: needing attention first, then by newest
   * heartbeat. Without includeStale, dead lanes are left out and only sessions that
   * heartbeated within the hour are read.
   */
  lanes(query: LaneQuery): Promise<Lane[]> {
    const ctx = this.#ctx;
    return ctx.store.read(async () => {
      const now = ctx.clock.now();
      const rows = await lanesInScope(ctx.store, {
        repoRoots: query.repoRoots,
        since: query.includeStale ? null : now - LANE_DEAD_MINUTES * MINUTE,
        limit: LANE_SCAN_LIMIT,
      });
      const lanes = (await toLanes(ctx, rows, now)).filter((lane) => query.includeStale || lane.activity !== 'dead');
      // Stable: the store's newest-heartbeat order is kept within each group.
      return [...lanes.filter((l) => l.needsAttention), ...lanes.filter((l) => !l.needsAttention)];
    });
  }

  /** One session's open lanes in scope, whatever their activity, most recently active thread first (at most 50). */
  sessionLanes(sessionId: string, repoRoots: readonly string[]): Promise<Lane[]> {
    const ctx = this.#ctx;
    return ctx.store.read(async () =>
      toLanes(ctx, await lanesOfSession(ctx.store, sessionId, repoRoots, SESSION_LANE_LIMIT), ctx.clock.now()),
    );
  }

  async hivemind(args: HivemindInput): Promise<HivemindResult> {
    const repoRoots = this.scope(args);
    const lanes = await this.lanes({ repoRoots, includeStale: args.include_stale });
    const sessions = lanes.slice(0, args.limit).map(hivemindLane);
    return withBudget(
      {
        generated_at: new Date(this.#ctx.clock.now()).toISOString(),
        repo_roots: repoRoots,
        session_count: lanes.length,
        counts: countActivities(lanes),
        sessions,
      },
      {
        available: lanes.length,
        returned: sessions.length,
        hydrate_with: 'task_timeline',
        why_collapsed: `First ${args.limit} lanes only: raise limit (max 100) or narrow repo_root.`,
      },
      this.#ctx.tokens,
    );
  }

  async context(args: HivemindContextInput): Promise<HivemindContextResult> {
    const repoRoots = this.scope(args);
    const lanes = await this.lanes({ repoRoots, includeStale: args.include_stale });
    return hivemindContext(this.#ctx, { memory: this.#deps.memory }, args, repoRoots, lanes);
  }
}

/** Working and thinking lanes need no age spelled out. */
function isLiveWork(lane: Lane): boolean {
  return lane.activity === 'working' || lane.activity === 'thinking';
}

function hivemindLane(lane: Lane): HivemindLane {
  return {
    session_id: lane.sessionId,
    task_id: lane.taskId,
    branch: lane.branch,
    task: lane.task,
    agent: lane.agent,
    owner: lane.owner,
    activity: lane.activity,
    ...(isLiveWork(lane) ? {} : { activity_summary: lane.activitySummary }),
    worktree_path: lane.worktreePath,
    source: LANE_SOURCE,
    locked_file_count: lane.claims.length,
    locked_file_preview: lockedFilePreview(lane),
    needs_attention: lane.needsAttention,
  };
}

function laneKey(sessionId: string, taskId: number): string {
  return `${taskId}\u0000${sessionId}`;
}

async function toLanes(ctx: DomainContext, rows: readonly LaneRow[], now: number): Promise<Lane[]> {
  const claims = await claimsByLane(ctx, rows);
  return rows.map((row) => toLane(row, claims.get(laneKey(row.sessionId, row.taskId)) ?? [], now));
}

/** Live claims of the lanes' sessions, grouped by lane (only lanes that hold some are read). */
async function claimsByLane(ctx: DomainContext, rows: readonly LaneRow[]): Promise<Map<string, LaneClaims[number][]>> {
  const holders = rows.filter((r) => r.liveClaimCount > 0).map((r) => r.sessionId);
  const byLane = new Map<string, LaneClaims[number][]>();
  for (const claim of await liveClaimsOfSessions(ctx.store, holders)) {
    const key = laneKey(claim.sessionId, claim.taskId);
    const list = byLane.get(key) ?? [];
    list.push({ filePath: claim.filePath, claimedAt: claim.claimedAt });
    byLane.set(key, list);
  }
  return byLane;
}

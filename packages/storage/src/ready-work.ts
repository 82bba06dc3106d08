/**
 * @module ready-work
 * Lookups across claims, sessions, plans and tasks for choosing work and spotting
 * stranded work: active claims and claimed sub-tasks of quiet sessions, a session's
 * live claims, others' live claims on a set of files, agents recently around, plan
 * sub-tasks by their task thread, and quiet lanes. Read-only statements; what counts
 * as quiet (the cutoff) is the caller's rule.
 */
import { asc, eq, inArray } from 'drizzle-orm';
import { dbOf, type Store, statement } from './_store';
import type { FileClaim } from './claims';
import type { PlacedSubtask } from './plans';
import { fileClaims, planSubtasks, plans, sessions, tasks } from './schema';
import { placedColumnsOf } from './where/plans';
import { readyWhere } from './where/ready-work';

/** An active claim of a quiet session, with its task's place and the session's last sign of life. */
export interface IdleClaim extends FileClaim {
  readonly repoRoot: string;
  readonly branch: string;
  readonly lastHeartbeatAt: number;
}

/**
 * Active claims (not handoff_pending: those already wait on a baton) of sessions whose
 * last heartbeat is before `cutoff`, longest-quiet session first, then by task and file.
 */
export function activeClaimsOfIdleSessions(store: Store, cutoff: number): IdleClaim[] {
  return dbOf(store)
    .select({ claim: fileClaims, repoRoot: tasks.repoRoot, branch: tasks.branch, heartbeat: sessions.lastHeartbeatAt })
    .from(fileClaims)
    .innerJoin(sessions, eq(sessions.id, fileClaims.sessionId))
    .innerJoin(tasks, eq(tasks.id, fileClaims.taskId))
    .where(readyWhere.idleClaims(fileClaims, sessions, cutoff))
    .orderBy(asc(sessions.lastHeartbeatAt), asc(fileClaims.sessionId), asc(fileClaims.taskId), asc(fileClaims.filePath))
    .all()
    .map((r) => ({ ...r.claim, repoRoot: r.repoRoot, branch: r.branch, lastHeartbeatAt: r.heartbeat }));
}

/** A live claim, as much as ready-work ranking needs: where, whose, and what its age class is read from. */
export interface LiveClaimRef {
  readonly repoRoot: string;
  readonly filePath: string;
  readonly sessionId: string;
  readonly agent: string;
  readonly state: string;
  readonly refreshedAt: number;
  readonly expiresAt: number | null;
}

const LIVE_REF = `SELECT t.repo_root AS repoRoot, c.file_path AS filePath, c.session_id AS sessionId, c.agent,
    c.state, c.refreshed_at AS refreshedAt, c.expires_at AS expiresAt
  FROM file_claims c CROSS JOIN tasks t ON t.id = c.task_id`;

/** A session's live (active or handoff_pending) claims on every task. */
export function liveClaimsOfSession(store: Store, sessionId: string): LiveClaimRef[] {
  return statement(store, `${LIVE_REF} WHERE c.session_id = @session AND c.state IN ('active', 'handoff_pending')`).all(
    { session: sessionId },
  ) as LiveClaimRef[];
}

/** Live claims of other sessions on any of these files of a repository (any branch), by file. */
export function othersLiveClaimsOnFiles(
  store: Store,
  repoRoot: string,
  filePaths: readonly string[],
  sessionId: string,
): LiveClaimRef[] {
  if (filePaths.length === 0) return [];
  // The file list travels as one JSON parameter, so the statement text (and its cache entry) stays fixed.
  // CROSS JOIN keeps claims as the outer loop (by file, through file_claims_path_idx): left to itself,
  // SQLite walks every task of the repository and probes each for every file, which grows with plans.
  return statement(
    store,
    `${LIVE_REF} WHERE c.file_path IN (SELECT value FROM json_each(@files)) AND c.state IN ('active', 'handoff_pending')
      AND t.repo_root = @repo AND c.session_id <> @session ORDER BY c.file_path, c.id`,
  ).all({ files: JSON.stringify([...new Set(filePaths)]), repo: repoRoot, session: sessionId }) as LiveClaimRef[];
}

/** Agents of sessions that heartbeated at or after `since` (not ended), with their session ids. */
export function recentSessionAgents(store: Store, since: number): Array<{ sessionId: string; agent: string }> {
  return dbOf(store)
    .select({ sessionId: sessions.id, agent: sessions.agent })
    .from(sessions)
    .where(readyWhere.recentAgents(sessions, since))
    .all()
    .map((r) => ({ sessionId: r.sessionId, agent: r.agent ?? '' }));
}

const placed = placedColumnsOf(planSubtasks, plans);

/** The plan sub-tasks whose threads are these tasks. */
export function subtasksOfTasks(store: Store, taskIds: readonly number[]): PlacedSubtask[] {
  if (taskIds.length === 0) return [];
  return dbOf(store)
    .select(placed)
    .from(planSubtasks)
    .innerJoin(plans, eq(plans.id, planSubtasks.planId))
    .where(inArray(planSubtasks.taskId, [...new Set(taskIds)]))
    .all()
    .map((r) => ({ ...r.subtask, planSlug: r.planSlug, repoRoot: r.repoRoot }));
}

/** A claimed sub-task whose claimer last heartbeated before the cutoff. */
export interface IdleSubtask extends PlacedSubtask {
  readonly lastHeartbeatAt: number;
}

/** Sub-tasks claimed by sessions quiet since before `cutoff`, longest-quiet first. */
export function subtasksClaimedByIdleSessions(store: Store, cutoff: number): IdleSubtask[] {
  return dbOf(store)
    .select({ ...placed, heartbeat: sessions.lastHeartbeatAt })
    .from(planSubtasks)
    .innerJoin(plans, eq(plans.id, planSubtasks.planId))
    .innerJoin(sessions, eq(sessions.id, planSubtasks.claimedBySessionId))
    .where(readyWhere.idleSubtasks(planSubtasks, sessions, cutoff))
    .orderBy(asc(sessions.lastHeartbeatAt), asc(planSubtasks.id))
    .all()
    .map((r) => ({ ...r.subtask, planSlug: r.planSlug, repoRoot: r.repoRoot, lastHeartbeatAt: r.heartbeat }));
}

/** Which quiet lanes: heartbeat in [after, before), not this session, optionally one repository. */
export interface QuietLaneFilter {
  readonly after: number;
  readonly before: number;
  readonly excludeSessionId: string;
  readonly repoRoot?: string;
  readonly limit: number;
}

/** Another session's place on an active task thread, quiet since before a cutoff. */
export interface QuietLane {
  readonly sessionId: string;
  readonly agent: string;
  readonly taskId: number;
  readonly title: string | null;
  readonly lastHeartbeatAt: number;
  /** Its live claims on the task. */
  readonly liveClaims: number;
}

/**
 * quietLanes' statement. Sessions first, through their heartbeat index (CROSS JOIN keeps
 * that order): the planner would otherwise start from the repository's tasks, history
 * included.
 */
export const QUIET_LANES_SQL = `SELECT tp.session_id AS sessionId, tp.agent, t.id AS taskId, t.title,
    s.last_heartbeat_at AS lastHeartbeatAt,
    (SELECT count(*) FROM file_claims c WHERE c.task_id = tp.task_id AND c.session_id = tp.session_id
       AND c.state IN ('active', 'handoff_pending')) AS liveClaims
  FROM sessions s
  CROSS JOIN task_participants tp ON tp.session_id = s.id
  CROSS JOIN tasks t ON t.id = tp.task_id
  WHERE s.last_heartbeat_at >= @after AND s.last_heartbeat_at < @before AND s.ended_at IS NULL
    AND s.id <> @exclude AND tp.left_at IS NULL AND t.status = 'active'
    AND (@repo IS NULL OR t.repo_root = @repo)
  ORDER BY s.last_heartbeat_at DESC, t.id ASC LIMIT @limit`;

/**
 * Lanes (session, task) of other sessions on active threads whose heartbeat is at or
 * after `after` and before `before` (sessions not ended), optionally in one repository;
 * most recently active first, at most `limit`. Read from the sessions' heartbeat index,
 * so sessions long gone are never visited.
 */
export function quietLanes(store: Store, filter: QuietLaneFilter): QuietLane[] {
  return statement(store, QUIET_LANES_SQL).all({
    after: filter.after,
    before: filter.before,
    exclude: filter.excludeSessionId,
    repo: filter.repoRoot ?? null,
    limit: filter.limit,
  }) as QuietLane[];
}

/** A plan sub-task as the ready-work picker reads it: no description, plan slug and repository joined. */
export interface ReadySubtaskRow {
  readonly planId: number;
  readonly planSlug: string;
  readonly repoRoot: string;
  readonly subtaskIndex: number;
  readonly title: string;
  readonly fileScope: string[];
  readonly dependsOn: number[];
  readonly capabilityHint: string | null;
  readonly taskId: number;
  readonly waveIndex: number;
  readonly status: string;
  readonly claimedBySessionId: string | null;
}

// Driven by the live sub-tasks (available, or claimed by the session: both indexed), so
// completed plans, however many, are never visited.
const READY_ROWS = `WITH live(plan_id) AS (
      SELECT plan_id FROM plan_subtasks WHERE status = 'available'
      UNION SELECT plan_id FROM plan_subtasks WHERE claimed_by_session_id = @session AND status = 'claimed')
  SELECT p.id AS planId, p.slug AS planSlug, p.repo_root AS repoRoot, s.subtask_index AS subtaskIndex,
    s.title, s.file_scope AS fileScope, s.depends_on AS dependsOn, s.capability_hint AS capabilityHint,
    s.task_id AS taskId, s.wave_index AS waveIndex, s.status, s.claimed_by_session_id AS claimedBySessionId
  FROM live CROSS JOIN plans p ON p.id = live.plan_id CROSS JOIN plan_subtasks s ON s.plan_id = p.id
  WHERE p.status = 'active' AND (@repo IS NULL OR p.repo_root = @repo)
  ORDER BY p.created_at DESC, p.id DESC, s.subtask_index`;

/**
 * Every sub-task of the active plans (of one repository, or all) that have something
 * for the session: an available sub-task, or one it holds claimed. Newest plan first,
 * then by index. One lean statement: this runs on every ready-work call, and its cost
 * follows the live sub-tasks, not the completed plans behind them.
 */
export function readySubtaskRows(store: Store, sessionId: string, repoRoot?: string): ReadySubtaskRow[] {
  const rows = statement(store, READY_ROWS).all({ repo: repoRoot ?? null, session: sessionId }) as Array<
    Record<string, unknown>
  >;
  // Parsed in place: spreading each row into a new object costs more than the query on big plans.
  for (const r of rows) {
    r.fileScope = JSON.parse(r.fileScope as string);
    r.dependsOn = JSON.parse(r.dependsOn as string);
  }
  return rows as unknown as ReadySubtaskRow[];
}

/** How many active plans there are (in one repository, or all). */
export function countActivePlans(store: Store, repoRoot?: string): number {
  const row = statement(
    store,
    `SELECT count(*) AS n FROM plans WHERE status = 'active' AND (@repo IS NULL OR repo_root = @repo)`,
  ).get({ repo: repoRoot ?? null }) as { n: number };
  return row.n;
}

/**
 * Which of these plan slugs exist in more than one repository (so a claim must name
 * repo_root). Walks the repositories that have plans with a loose scan of the
 * (repo_root, slug) index, then probes each for the slugs: index seeks only, whatever
 * the number of plans.
 */
export function slugsInSeveralRepos(store: Store, slugs: readonly string[]): Set<string> {
  if (slugs.length === 0) return new Set();
  const rows = statement(
    store,
    `WITH RECURSIVE roots(r) AS (
        SELECT min(repo_root) FROM plans
        UNION ALL SELECT (SELECT min(repo_root) FROM plans WHERE repo_root > roots.r) FROM roots WHERE r IS NOT NULL)
      SELECT p.slug FROM roots CROSS JOIN plans p ON p.repo_root = roots.r
        AND p.slug IN (SELECT value FROM json_each(@slugs))
      WHERE roots.r IS NOT NULL GROUP BY p.slug HAVING count(*) > 1`,
  ).all({ slugs: JSON.stringify([...new Set(slugs)]) }) as Array<{ slug: string }>;
  return new Set(rows.map((r) => r.slug));
}

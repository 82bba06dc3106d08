/**
 * @module pg/queries/ready-work
 * The ready-work and stranded-work lookups of `src/ready-work.ts` on PostgreSQL: the
 * same reads, `$n` parameters, lists as `= ANY($n::text[])` (SQLite: `json_each`), the
 * sub-tasks' JSON columns (text here, as SQLite stores them) parsed on read, counts as
 * numbers. `slugsInSeveralRepos` groups by slug over `(repo_root, slug)` (SQLite walks
 * the index with a recursive loose scan; the answer is the same).
 */
import { asc, eq, inArray } from 'drizzle-orm';
import type { FileClaim } from '../../claims';
import type { PlacedSubtask } from '../../plans';
import type {
  IdleClaim,
  IdleSubtask,
  LiveClaimRef,
  QuietLane,
  QuietLaneFilter,
  ReadySubtaskRow,
} from '../../ready-work';
import { placedColumnsOf } from '../../where/plans';
import { readyWhere } from '../../where/ready-work';
import { pgTables } from '../schema';
import { pgClient, pgDb } from '../store/_handle';
import type { PgStore } from '../store/pg-store';
import { fromJson, numbered, subtaskOf } from './_common';

const { fileClaims, planSubtasks, plans, sessions, tasks } = pgTables;

/** Active claims of sessions quiet since before `cutoff`, longest-quiet session first, then by task and file. */
export async function activeClaimsOfIdleSessions(store: PgStore, cutoff: number): Promise<IdleClaim[]> {
  const rows = await pgDb(store)
    .select({ claim: fileClaims, repoRoot: tasks.repoRoot, branch: tasks.branch, heartbeat: sessions.lastHeartbeatAt })
    .from(fileClaims)
    .innerJoin(sessions, eq(sessions.id, fileClaims.sessionId))
    .innerJoin(tasks, eq(tasks.id, fileClaims.taskId))
    .where(readyWhere.idleClaims(fileClaims, sessions, cutoff))
    .orderBy(
      asc(sessions.lastHeartbeatAt),
      asc(fileClaims.sessionId),
      asc(fileClaims.taskId),
      asc(fileClaims.filePath),
    );
  return rows.map((r) => ({
    ...(r.claim as FileClaim),
    repoRoot: r.repoRoot as string,
    branch: r.branch as string,
    lastHeartbeatAt: r.heartbeat as number,
  }));
}

const LIVE_REF = `SELECT t.repo_root AS "repoRoot", c.file_path AS "filePath", c.session_id AS "sessionId", c.agent,
    c.state, c.refreshed_at AS "refreshedAt", c.expires_at AS "expiresAt"
  FROM file_claims c JOIN tasks t ON t.id = c.task_id`;

async function liveRefs(store: PgStore, text: string, values: unknown[]): Promise<LiveClaimRef[]> {
  const { rows } = await pgClient(store).query(text, values);
  return rows.map((r) => numbered<LiveClaimRef>(r as Record<string, unknown>, ['refreshedAt', 'expiresAt']));
}

/** A session's live (active or handoff_pending) claims on every task. */
export function liveClaimsOfSession(store: PgStore, sessionId: string): Promise<LiveClaimRef[]> {
  return liveRefs(store, `${LIVE_REF} WHERE c.session_id = $1 AND c.state IN ('active', 'handoff_pending')`, [
    sessionId,
  ]);
}

/** Live claims of other sessions on any of these files of a repository (any branch), by file. */
export function othersLiveClaimsOnFiles(
  store: PgStore,
  repoRoot: string,
  filePaths: readonly string[],
  sessionId: string,
): Promise<LiveClaimRef[]> {
  if (filePaths.length === 0) return Promise.resolve([]);
  return liveRefs(
    store,
    `${LIVE_REF} WHERE c.file_path = ANY($1::text[]) AND c.state IN ('active', 'handoff_pending')
      AND t.repo_root = $2 AND c.session_id <> $3 ORDER BY c.file_path COLLATE "C", c.id`,
    [[...new Set(filePaths)], repoRoot, sessionId],
  );
}

/** Agents of sessions that heartbeated at or after `since` (not ended), with their session ids. */
export async function recentSessionAgents(
  store: PgStore,
  since: number,
): Promise<Array<{ sessionId: string; agent: string }>> {
  const rows = await pgDb(store)
    .select({ sessionId: sessions.id, agent: sessions.agent })
    .from(sessions)
    .where(readyWhere.recentAgents(sessions, since));
  return rows.map((r) => ({ sessionId: r.sessionId as string, agent: (r.agent as string | null) ?? '' }));
}

const placed = placedColumnsOf(planSubtasks, plans);

/** The plan sub-tasks whose threads are these tasks. */
export async function subtasksOfTasks(store: PgStore, taskIds: readonly number[]): Promise<PlacedSubtask[]> {
  if (taskIds.length === 0) return [];
  const rows = await pgDb(store)
    .select(placed)
    .from(planSubtasks)
    .innerJoin(plans, eq(plans.id, planSubtasks.planId))
    .where(inArray(planSubtasks.taskId, [...new Set(taskIds)]));
  return rows.map((r) => ({ ...subtaskOf(r.subtask), planSlug: r.planSlug as string, repoRoot: r.repoRoot as string }));
}

/** Sub-tasks claimed by sessions quiet since before `cutoff`, longest-quiet first. */
export async function subtasksClaimedByIdleSessions(store: PgStore, cutoff: number): Promise<IdleSubtask[]> {
  const rows = await pgDb(store)
    .select({ ...placed, heartbeat: sessions.lastHeartbeatAt })
    .from(planSubtasks)
    .innerJoin(plans, eq(plans.id, planSubtasks.planId))
    .innerJoin(sessions, eq(sessions.id, planSubtasks.claimedBySessionId))
    .where(readyWhere.idleSubtasks(planSubtasks, sessions, cutoff))
    .orderBy(asc(sessions.lastHeartbeatAt), asc(planSubtasks.id));
  return rows.map((r) => ({
    ...subtaskOf(r.subtask),
    planSlug: r.planSlug as string,
    repoRoot: r.repoRoot as string,
    lastHeartbeatAt: r.heartbeat as number,
  }));
}

/** Lanes (session, task) of other sessions on active threads, quiet in [after, before), newest first, at most `limit`. */
export async function quietLanes(store: PgStore, filter: QuietLaneFilter): Promise<QuietLane[]> {
  const { rows } = await pgClient(store).query(
    `SELECT tp.session_id AS "sessionId", tp.agent, t.id AS "taskId", t.title,
        s.last_heartbeat_at AS "lastHeartbeatAt",
        (SELECT count(*) FROM file_claims c WHERE c.task_id = tp.task_id AND c.session_id = tp.session_id
           AND c.state IN ('active', 'handoff_pending')) AS "liveClaims"
      FROM sessions s JOIN task_participants tp ON tp.session_id = s.id JOIN tasks t ON t.id = tp.task_id
      WHERE s.last_heartbeat_at >= $1 AND s.last_heartbeat_at < $2 AND s.ended_at IS NULL
        AND s.id <> $3 AND tp.left_at IS NULL AND t.status = 'active'
        AND ($4::text IS NULL OR t.repo_root = $4)
      ORDER BY s.last_heartbeat_at DESC, t.id ASC LIMIT $5`,
    [filter.after, filter.before, filter.excludeSessionId, filter.repoRoot ?? null, filter.limit],
  );
  return rows.map((r) =>
    numbered<QuietLane>(r as Record<string, unknown>, ['taskId', 'lastHeartbeatAt', 'liveClaims']),
  );
}

/** Every sub-task of the active plans (of one repository, or all) with an available one or one the session holds. */
export async function readySubtaskRows(
  store: PgStore,
  sessionId: string,
  repoRoot?: string,
): Promise<ReadySubtaskRow[]> {
  const { rows } = await pgClient(store).query(
    `WITH live(plan_id) AS (
        SELECT plan_id FROM plan_subtasks WHERE status = 'available'
        UNION SELECT plan_id FROM plan_subtasks WHERE claimed_by_session_id = $1 AND status = 'claimed')
      SELECT p.id AS "planId", p.slug AS "planSlug", p.repo_root AS "repoRoot", s.subtask_index AS "subtaskIndex",
        s.title, s.file_scope AS "fileScope", s.depends_on AS "dependsOn", s.capability_hint AS "capabilityHint",
        s.task_id AS "taskId", s.wave_index AS "waveIndex", s.status, s.claimed_by_session_id AS "claimedBySessionId"
      FROM live JOIN plans p ON p.id = live.plan_id JOIN plan_subtasks s ON s.plan_id = p.id
      WHERE p.status = 'active' AND ($2::text IS NULL OR p.repo_root = $2)
      ORDER BY p.created_at DESC, p.id DESC, s.subtask_index`,
    [sessionId, repoRoot ?? null],
  );
  return rows.map((row) => {
    const r = numbered<Record<string, unknown>>(row as Record<string, unknown>, [
      'planId',
      'subtaskIndex',
      'taskId',
      'waveIndex',
    ]);
    return { ...r, fileScope: fromJson(r.fileScope), dependsOn: fromJson(r.dependsOn) } as unknown as ReadySubtaskRow;
  });
}

/** How many active plans there are (in one repository, or all). */
export async function countActivePlans(store: PgStore, repoRoot?: string): Promise<number> {
  const { rows } = await pgClient(store).query(
    `SELECT count(*) AS n FROM plans WHERE status = 'active' AND ($1::text IS NULL OR repo_root = $1)`,
    [repoRoot ?? null],
  );
  return Number((rows[0] as { n: string }).n);
}

/** Which of these plan slugs exist in more than one repository (so a claim must name repo_root). */
export async function slugsInSeveralRepos(store: PgStore, slugs: readonly string[]): Promise<Set<string>> {
  if (slugs.length === 0) return new Set();
  const { rows } = await pgClient(store).query(
    'SELECT slug FROM plans WHERE slug = ANY($1::text[]) GROUP BY slug HAVING count(DISTINCT repo_root) > 1',
    [[...new Set(slugs)]],
  );
  return new Set(rows.map((r) => (r as { slug: string }).slug));
}

/**
 * @module ready-work
 * Lookups across claims, sessions, plans and tasks for choosing work and spotting
 * stranded work: active claims and claimed sub-tasks of quiet sessions, a session's
 * live claims, others' live claims on a set of files, agents recently around, plan
 * sub-tasks by their task thread, and quiet lanes. Read-only statements; what counts
 * as quiet (the cutoff) is the caller's rule.
 */
import { and, asc, eq, gte, inArray, isNotNull, isNull, lt, ne, sql } from 'drizzle-orm';
import { dbOf, type Store } from './_store';
import type { FileClaim } from './claims';
import type { PlacedSubtask } from './plans';
import { fileClaims, planSubtasks, plans, sessions, taskParticipants, tasks } from './schema';

const LIVE = ['active', 'handoff_pending'];

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
    .where(and(eq(fileClaims.state, 'active'), lt(sessions.lastHeartbeatAt, cutoff)))
    .orderBy(asc(sessions.lastHeartbeatAt), asc(fileClaims.sessionId), asc(fileClaims.taskId), asc(fileClaims.filePath))
    .all()
    .map((r) => ({ ...r.claim, repoRoot: r.repoRoot, branch: r.branch, lastHeartbeatAt: r.heartbeat }));
}

/** A claim with the repository of its task. */
export interface RepoFileClaim extends FileClaim {
  readonly repoRoot: string;
}

/** A session's live (active or handoff_pending) claims on every task, with each task's repository. */
export function liveClaimsOfSession(store: Store, sessionId: string): RepoFileClaim[] {
  return dbOf(store)
    .select({ claim: fileClaims, repoRoot: tasks.repoRoot })
    .from(fileClaims)
    .innerJoin(tasks, eq(tasks.id, fileClaims.taskId))
    .where(and(eq(fileClaims.sessionId, sessionId), inArray(fileClaims.state, LIVE)))
    .all()
    .map((r) => ({ ...r.claim, repoRoot: r.repoRoot }));
}

/** Live claims of other sessions on any of these files of a repository (any branch). */
export function othersLiveClaimsOnFiles(
  store: Store,
  repoRoot: string,
  filePaths: readonly string[],
  sessionId: string,
): FileClaim[] {
  if (filePaths.length === 0) return [];
  return dbOf(store)
    .select({ claim: fileClaims })
    .from(fileClaims)
    .innerJoin(tasks, eq(tasks.id, fileClaims.taskId))
    .where(
      and(
        sql`${fileClaims.filePath} IN (SELECT value FROM json_each(${JSON.stringify([...new Set(filePaths)])}))`,
        inArray(fileClaims.state, LIVE),
        eq(tasks.repoRoot, repoRoot),
        ne(fileClaims.sessionId, sessionId),
      ),
    )
    .orderBy(asc(fileClaims.filePath), asc(fileClaims.id))
    .all()
    .map((r) => r.claim);
}

/** Agents of sessions that heartbeated at or after `since` (not ended), with their session ids. */
export function recentSessionAgents(store: Store, since: number): Array<{ sessionId: string; agent: string }> {
  return dbOf(store)
    .select({ sessionId: sessions.id, agent: sessions.agent })
    .from(sessions)
    .where(and(gte(sessions.lastHeartbeatAt, since), isNull(sessions.endedAt), isNotNull(sessions.agent)))
    .all()
    .map((r) => ({ sessionId: r.sessionId, agent: r.agent ?? '' }));
}

const placed = {
  subtask: planSubtasks,
  planSlug: plans.slug,
  repoRoot: plans.repoRoot,
};

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
    .where(and(eq(planSubtasks.status, 'claimed'), lt(sessions.lastHeartbeatAt, cutoff)))
    .orderBy(asc(sessions.lastHeartbeatAt), asc(planSubtasks.id))
    .all()
    .map((r) => ({ ...r.subtask, planSlug: r.planSlug, repoRoot: r.repoRoot, lastHeartbeatAt: r.heartbeat }));
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
 * Lanes (session, task) of other sessions on active threads whose heartbeat is before
 * `before`, optionally in one repository; most recently active first, at most `limit`.
 */
export function quietLanes(
  store: Store,
  filter: {
    readonly before: number;
    readonly excludeSessionId: string;
    readonly repoRoot?: string;
    readonly limit: number;
  },
): QuietLane[] {
  const claims = sql<number>`(SELECT count(*) FROM file_claims c WHERE c.task_id = ${taskParticipants.taskId}
    AND c.session_id = ${taskParticipants.sessionId} AND c.state IN ('active', 'handoff_pending'))`;
  return dbOf(store)
    .select({
      sessionId: taskParticipants.sessionId,
      agent: taskParticipants.agent,
      taskId: tasks.id,
      title: tasks.title,
      lastHeartbeatAt: sessions.lastHeartbeatAt,
      liveClaims: claims,
    })
    .from(taskParticipants)
    .innerJoin(tasks, eq(tasks.id, taskParticipants.taskId))
    .innerJoin(sessions, eq(sessions.id, taskParticipants.sessionId))
    .where(
      and(
        isNull(taskParticipants.leftAt),
        eq(tasks.status, 'active'),
        lt(sessions.lastHeartbeatAt, filter.before),
        ne(taskParticipants.sessionId, filter.excludeSessionId),
        filter.repoRoot === undefined ? undefined : eq(tasks.repoRoot, filter.repoRoot),
      ),
    )
    .orderBy(sql`${sessions.lastHeartbeatAt} DESC`, asc(tasks.id))
    .limit(filter.limit)
    .all();
}

/**
 * @module lanes
 * Reads for the live lane map (hivemind): lanes are (session, task thread) pairs of
 * sessions that heartbeated recently, found through the heartbeat index so the cost
 * follows live sessions, never the history of finished tasks. Plus the scope's
 * attention counts, ready sub-task count and newest negative warnings, all bounded.
 * Read-only statements; what counts as live (the cutoff) is the caller's rule.
 */
import { type Store, statement } from './_store';
import { noAttention, type ScopeAttention, scopeAttentionOf } from './where/lanes';

/** One session on one task thread, with what its activity is read from. */
export interface LaneRow {
  readonly sessionId: string;
  /** The agent the session joined the thread as. */
  readonly agent: string;
  readonly ide: string;
  readonly cwd: string | null;
  readonly taskId: number;
  readonly repoRoot: string;
  readonly branch: string;
  readonly title: string | null;
  readonly lastHeartbeatAt: number;
  readonly endedAt: number | null;
  /** The session's latest claim (made or refreshed) on the task, any state. */
  readonly lastClaimAt: number | null;
  /** The session's latest `edit` observation on the task. */
  readonly lastEditAt: number | null;
  /** Its live (active or handoff_pending) claims on the task. */
  readonly liveClaimCount: number;
  /** 1 when the session holds the thread's plan sub-task claimed, else 0. */
  readonly holdsSubtask: number;
}

export interface LaneFilter {
  /** Repository roots in scope (already normalised). */
  readonly repoRoots: readonly string[];
  /** Sessions whose last heartbeat is at or after this; null reads every session, newest first. */
  readonly since: number | null;
  /** Most lanes read. */
  readonly limit: number;
}

const LANE_COLUMNS = `SELECT p.session_id AS sessionId, p.agent, s.ide, s.cwd, t.id AS taskId, t.repo_root AS repoRoot,
    t.branch, t.title, s.last_heartbeat_at AS lastHeartbeatAt, s.ended_at AS endedAt,
    (SELECT max(c.refreshed_at) FROM file_claims c WHERE c.session_id = p.session_id AND c.task_id = p.task_id) AS lastClaimAt,
    (SELECT max(o.ts) FROM observations o WHERE o.session_id = p.session_id AND o.task_id = p.task_id
       AND o.kind = 'edit') AS lastEditAt,
    (SELECT count(*) FROM file_claims c WHERE c.session_id = p.session_id AND c.task_id = p.task_id
       AND c.state IN ('active', 'handoff_pending')) AS liveClaimCount,
    EXISTS (SELECT 1 FROM plan_subtasks x WHERE x.task_id = t.id AND x.status = 'claimed'
       AND x.claimed_by_session_id = p.session_id) AS holdsSubtask
  FROM sessions s CROSS JOIN task_participants p ON p.session_id = s.id CROSS JOIN tasks t ON t.id = p.task_id`;
const OPEN_LANE = `p.left_at IS NULL AND t.status = 'active' AND t.repo_root IN (SELECT value FROM json_each(@roots))
    AND NOT EXISTS (SELECT 1 FROM plan_subtasks x WHERE x.task_id = t.id AND x.status = 'completed')`;

// The heartbeat index drives: sessions newest first (within the window), then their
// threads by the participants' session index, then the task by id. CROSS JOIN keeps that order.
/** @internal The lane statement (tests check its query plan). */
export const LANES_SQL = `${LANE_COLUMNS}
  WHERE s.last_heartbeat_at >= @since AND ${OPEN_LANE}
  ORDER BY s.last_heartbeat_at DESC, s.id, t.id
  LIMIT @limit`;

/**
 * Lanes in scope: sessions heartbeating since `since`, on active threads of the
 * repositories they have not left (a thread whose plan sub-task is completed is done),
 * newest heartbeat first, at most `limit`.
 */
export function lanesInScope(store: Store, filter: LaneFilter): LaneRow[] {
  if (filter.repoRoots.length === 0) return [];
  return statement(store, LANES_SQL).all({
    since: filter.since ?? Number.MIN_SAFE_INTEGER,
    roots: JSON.stringify(filter.repoRoots),
    limit: filter.limit,
  }) as LaneRow[];
}

/** One session's open lanes in scope, whatever its heartbeat, newest thread activity first, at most `limit`. */
export function lanesOfSession(
  store: Store,
  sessionId: string,
  repoRoots: readonly string[],
  limit: number,
): LaneRow[] {
  if (repoRoots.length === 0) return [];
  return statement(
    store,
    `${LANE_COLUMNS} WHERE s.id = @session AND ${OPEN_LANE} ORDER BY t.updated_at DESC, t.id DESC LIMIT @limit`,
  ).all({ session: sessionId, roots: JSON.stringify(repoRoots), limit }) as LaneRow[];
}

/** A live claim of a lane. */
export interface LaneClaim {
  readonly sessionId: string;
  readonly taskId: number;
  readonly filePath: string;
  readonly claimedAt: number;
  readonly refreshedAt: number;
}

/** Live (active or handoff_pending) claims of these sessions, most recently refreshed first. */
export function liveClaimsOfSessions(store: Store, sessionIds: readonly string[]): LaneClaim[] {
  if (sessionIds.length === 0) return [];
  return statement(
    store,
    `SELECT session_id AS sessionId, task_id AS taskId, file_path AS filePath, claimed_at AS claimedAt,
        refreshed_at AS refreshedAt
      FROM file_claims WHERE session_id IN (SELECT value FROM json_each(@ids)) AND state IN ('active', 'handoff_pending')
      ORDER BY refreshed_at DESC, id DESC`,
  ).all({ ids: JSON.stringify([...new Set(sessionIds)]) }) as LaneClaim[];
}

export type { ScopeAttention };

/**
 * Unread (not expired) messages and pending (not expired) batons on active threads of
 * these repositories. Read through the status indexes: the cost follows what is
 * waiting, never the message or baton history.
 */
export function scopeAttention(
  store: Store,
  repoRoots: readonly string[],
  now: number,
  idLimit: number,
): ScopeAttention {
  if (repoRoots.length === 0) {
    return noAttention();
  }
  const params = { roots: JSON.stringify(repoRoots), now };
  const messages = statement(
    store,
    `SELECT m.id, m.urgency FROM messages m CROSS JOIN tasks t ON t.id = m.task_id
      WHERE m.to_agent IN ('claude', 'codex', 'any') AND m.status = 'unread' AND (m.expires_at IS NULL OR m.expires_at > @now)
        AND t.repo_root IN (SELECT value FROM json_each(@roots))`,
  ).all(params) as Array<{ id: number; urgency: string }>;
  const batons = statement(
    store,
    `SELECT b.id, b.kind FROM batons b CROSS JOIN tasks t ON t.id = b.task_id
      WHERE b.status = 'pending' AND b.expires_at > @now AND t.repo_root IN (SELECT value FROM json_each(@roots))`,
  ).all(params) as Array<{ id: number; kind: string }>;
  return scopeAttentionOf(messages, batons, idLimit);
}

/** Available sub-tasks (every dependency completed) of active plans of these repositories. */
export function countReadySubtasks(store: Store, repoRoots: readonly string[]): number {
  if (repoRoots.length === 0) return 0;
  const row = statement(
    store,
    `SELECT count(*) AS n FROM plan_subtasks s CROSS JOIN plans p ON p.id = s.plan_id
      WHERE s.status = 'available' AND p.status = 'active' AND p.repo_root IN (SELECT value FROM json_each(@roots))`,
  ).get({ roots: JSON.stringify(repoRoots) }) as { n: number };
  return row.n;
}

/** A warning post (failed_approach and the like) on a thread of the scope. */
export interface ScopeWarning {
  readonly id: number;
  readonly sessionId: string;
  readonly kind: string;
  /** The first 200 characters of the body. */
  readonly text: string;
  readonly ts: number;
  readonly taskId: number;
}

/**
 * The newest observations of each of these kinds on threads of these repositories, at
 * most `perKind` each, merged newest first. Each kind walks the kind index backwards
 * and stops at `perKind`, so old warnings elsewhere are never all read.
 */
export function scopeWarnings(
  store: Store,
  repoRoots: readonly string[],
  kinds: readonly string[],
  perKind: number,
): ScopeWarning[] {
  if (repoRoots.length === 0 || kinds.length === 0) return [];
  const byKind = statement(
    store,
    `SELECT o.id, o.session_id AS sessionId, o.kind, substr(o.content, 1, 200) AS text, o.ts, o.task_id AS taskId
      FROM observations o CROSS JOIN tasks t ON t.id = o.task_id
      WHERE o.kind = @kind AND t.repo_root IN (SELECT value FROM json_each(@roots))
      ORDER BY o.id DESC LIMIT @limit`,
  );
  const roots = JSON.stringify(repoRoots);
  return kinds
    .flatMap((kind) => byKind.all({ kind, roots, limit: perKind }) as ScopeWarning[])
    .sort((a, b) => b.ts - a.ts || b.id - a.id);
}

/** The session's latest working note (task_note_working) on a task among its newest `scan` observations. */
export function latestWorkingNote(
  store: Store,
  sessionId: string,
  taskId: number,
  scan: number,
): { id: number; ts: number; text: string } | undefined {
  return statement(
    store,
    `SELECT id, ts, substr(content, 1, 200) AS text FROM (
       SELECT id, ts, content, task_id, kind, metadata FROM observations WHERE session_id = @session ORDER BY id DESC LIMIT @scan)
     WHERE task_id = @task AND kind = 'note' AND json_extract(metadata, '$.working') = 1
     ORDER BY id DESC LIMIT 1`,
  ).get({ session: sessionId, task: taskId, scan }) as { id: number; ts: number; text: string } | undefined;
}

/** Live (active or handoff_pending) claims on one task, newest refresh first, at most `limit`. */
export function liveClaimsOfTask(store: Store, taskId: number, limit: number): LaneClaim[] {
  return statement(
    store,
    `SELECT session_id AS sessionId, task_id AS taskId, file_path AS filePath, claimed_at AS claimedAt,
        refreshed_at AS refreshedAt
      FROM file_claims WHERE task_id = @task AND state IN ('active', 'handoff_pending')
      ORDER BY refreshed_at DESC, id DESC LIMIT @limit`,
  ).all({ task: taskId, limit }) as LaneClaim[];
}

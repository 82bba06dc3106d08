/**
 * @module attention
 * Reads behind attention_inbox, each bounded by live state or by a window, never by
 * history: live file claims through the partial index `file_claims_live_uq` (released
 * and weakened rows are never visited), claimed plan sub-tasks through their status
 * index, and the newest `edit` / `blocker` observations through the kind index with a
 * LIMIT before any filter. Scope (repositories, task ids) travels as JSON parameters,
 * so each statement text, and its cache entry, stays fixed. What counts as fresh,
 * stale, stalled or hot is the caller's rule.
 */
import { type Store, statement } from './_store';

/** Where to look: repositories and/or task threads; null is everywhere. */
export interface AttentionScope {
  readonly repoRoots: readonly string[] | null;
  readonly taskIds: readonly number[] | null;
}

const scopeParams = (scope: AttentionScope) => ({
  roots: scope.repoRoots === null ? null : JSON.stringify(scope.repoRoots),
  tasks: scope.taskIds === null ? null : JSON.stringify(scope.taskIds),
});

/** A live (active or handoff_pending) claim, where it is, and its holder's signs of life. */
export interface AttentionClaim {
  readonly id: number;
  readonly taskId: number;
  readonly filePath: string;
  readonly sessionId: string;
  readonly agent: string;
  readonly state: string;
  readonly refreshedAt: number;
  readonly expiresAt: number | null;
  readonly observationId: number;
  readonly repoRoot: string;
  readonly branch: string;
  readonly title: string | null;
  readonly lastHeartbeatAt: number;
  readonly endedAt: number | null;
  readonly ide: string;
  readonly cwd: string | null;
}

/**
 * @internal Exported for the query-plan test. CROSS JOIN keeps the claims (walked through
 * the live partial index) as the outer loop: left to itself, SQLite may walk every task
 * of a repository and probe each, which grows with history.
 */
export const LIVE_CLAIMS_SQL = `SELECT c.id, c.task_id AS taskId, c.file_path AS filePath, c.session_id AS sessionId,
    c.agent, c.state, c.refreshed_at AS refreshedAt, c.expires_at AS expiresAt, c.observation_id AS observationId,
    t.repo_root AS repoRoot, t.branch, t.title, s.last_heartbeat_at AS lastHeartbeatAt, s.ended_at AS endedAt, s.ide, s.cwd
  FROM file_claims c INDEXED BY file_claims_live_uq
  CROSS JOIN tasks t ON t.id = c.task_id
  CROSS JOIN sessions s ON s.id = c.session_id
  WHERE c.state IN ('active', 'handoff_pending')
    AND (@roots IS NULL OR t.repo_root IN (SELECT value FROM json_each(@roots)))
    AND (@tasks IS NULL OR c.task_id IN (SELECT value FROM json_each(@tasks)))
  ORDER BY c.refreshed_at DESC, c.id DESC LIMIT @limit`;

/** Live claims in scope (every session), most recently refreshed first, at most `limit`. */
export function liveClaimsInScope(store: Store, scope: AttentionScope, limit: number): AttentionClaim[] {
  return statement(store, LIVE_CLAIMS_SQL).all({ ...scopeParams(scope), limit }) as AttentionClaim[];
}

/** A claimed plan sub-task, where it is, and its claimer's signs of life. */
export interface AttentionSubtask {
  readonly taskId: number;
  readonly planSlug: string;
  readonly subtaskIndex: number;
  readonly title: string;
  readonly repoRoot: string;
  readonly branch: string;
  readonly sessionId: string;
  readonly agent: string;
  readonly claimedAt: number;
  /** The plan-subtask-claim observation of the open claim (the advertisement when none is found). */
  readonly observationId: number;
  readonly lastHeartbeatAt: number;
  readonly endedAt: number | null;
  readonly ide: string;
  readonly cwd: string | null;
}

/** @internal Exported for the query-plan test. */
export const CLAIMED_SUBTASKS_SQL = `SELECT s.task_id AS taskId, p.slug AS planSlug, s.subtask_index AS subtaskIndex,
    s.title, p.repo_root AS repoRoot, s.branch, s.claimed_by_session_id AS sessionId,
    coalesce(s.claimed_by_agent, '') AS agent, coalesce(s.claimed_at, 0) AS claimedAt,
    coalesce((SELECT k.observation_id FROM plan_subtask_claims k WHERE k.subtask_id = s.id AND k.state = 'active'),
      s.observation_id) AS observationId,
    x.last_heartbeat_at AS lastHeartbeatAt, x.ended_at AS endedAt, x.ide, x.cwd
  FROM plan_subtasks s
  CROSS JOIN plans p ON p.id = s.plan_id
  CROSS JOIN sessions x ON x.id = s.claimed_by_session_id
  WHERE s.status = 'claimed'
    AND (@roots IS NULL OR p.repo_root IN (SELECT value FROM json_each(@roots)))
    AND (@tasks IS NULL OR s.task_id IN (SELECT value FROM json_each(@tasks)))
  ORDER BY x.last_heartbeat_at DESC, s.id LIMIT @limit`;

/** Claimed plan sub-tasks in scope, most recently heartbeating claimer first, at most `limit`. */
export function claimedSubtasksInScope(store: Store, scope: AttentionScope, limit: number): AttentionSubtask[] {
  return statement(store, CLAIMED_SUBTASKS_SQL).all({ ...scopeParams(scope), limit }) as AttentionSubtask[];
}

/** One recorded file edit. */
export interface AttentionEdit {
  readonly id: number;
  readonly taskId: number;
  readonly sessionId: string;
  readonly ts: number;
  readonly filePath: string;
  readonly repoRoot: string;
}

/**
 * @internal Exported for the query-plan test. The inner LIMIT walks the kind index from
 * the newest row: at most `scan` edits are read however old the store is.
 */
export const RECENT_EDITS_SQL = `SELECT o.id, o.task_id AS taskId, o.session_id AS sessionId, o.ts, o.file_path AS filePath,
    t.repo_root AS repoRoot
  FROM (SELECT id, task_id, session_id, ts, json_extract(metadata, '$.file_path') AS file_path
        FROM observations WHERE kind = 'edit' ORDER BY id DESC LIMIT @scan) o
  CROSS JOIN tasks t ON t.id = o.task_id
  WHERE o.ts >= @since AND o.file_path IS NOT NULL
    AND (@roots IS NULL OR t.repo_root IN (SELECT value FROM json_each(@roots)))
    AND (@tasks IS NULL OR o.task_id IN (SELECT value FROM json_each(@tasks)))
  ORDER BY o.id DESC`;

/** Edits in scope at or after `since`, among the newest `scan` edits of the store, newest first. */
export function recentEditsInScope(store: Store, scope: AttentionScope, since: number, scan: number): AttentionEdit[] {
  return statement(store, RECENT_EDITS_SQL).all({ ...scopeParams(scope), since, scan }) as AttentionEdit[];
}

/** A `blocker` post nobody has replied to yet. */
export interface OpenBlockerPost {
  readonly id: number;
  readonly taskId: number;
  readonly sessionId: string;
  readonly agent: string;
  readonly ts: number;
  /** The first characters of the body. */
  readonly head: string;
}

/**
 * @internal Exported for the query-plan test. Replies are posts on the same thread with
 * a larger id, so the reply check is a range of that thread's task index.
 */
export const OPEN_BLOCKERS_SQL = `SELECT b.id, b.task_id AS taskId, b.session_id AS sessionId,
    coalesce(p.agent, '') AS agent, b.ts, substr(b.content, 1, 200) AS head
  FROM (SELECT id, task_id, session_id, ts, content FROM observations WHERE kind = 'blocker'
        ORDER BY id DESC LIMIT @scan) b
  LEFT JOIN task_participants p ON p.task_id = b.task_id AND p.session_id = b.session_id
  WHERE b.task_id IN (SELECT value FROM json_each(@tasks))
    AND NOT EXISTS (SELECT 1 FROM observations r WHERE r.task_id = b.task_id AND r.id > b.id AND r.reply_to = b.id)
  ORDER BY b.id DESC LIMIT @limit`;

/**
 * Blocker posts on these threads that no observation replies to (an answer, a decision,
 * a note with reply_to), among the newest `scan` blocker posts of the store; newest first.
 */
export function openBlockerPosts(
  store: Store,
  taskIds: readonly number[],
  scan: number,
  limit: number,
): OpenBlockerPost[] {
  if (taskIds.length === 0) return [];
  return statement(store, OPEN_BLOCKERS_SQL).all({
    tasks: JSON.stringify(taskIds),
    scan,
    limit,
  }) as OpenBlockerPost[];
}

/** @internal Exported for the query-plan test. */
export const SESSION_THREADS_SQL = `SELECT t.id FROM task_participants p CROSS JOIN tasks t ON t.id = p.task_id
  WHERE p.session_id = @session AND p.left_at IS NULL
    AND (@roots IS NULL OR t.repo_root IN (SELECT value FROM json_each(@roots)))
    AND (@tasks IS NULL OR t.id IN (SELECT value FROM json_each(@tasks)))
  ORDER BY t.updated_at DESC, t.id DESC LIMIT @limit`;

/** Ids of the threads a session takes part in, within scope, most recently updated first. */
export function sessionThreadsInScope(store: Store, sessionId: string, scope: AttentionScope, limit: number): number[] {
  return (
    statement(store, SESSION_THREADS_SQL).all({ ...scopeParams(scope), session: sessionId, limit }) as Array<{
      id: number;
    }>
  ).map((r) => r.id);
}

/** Which of these task ids exist. */
export function existingTaskIds(store: Store, taskIds: readonly number[]): number[] {
  if (taskIds.length === 0) return [];
  return (
    statement(store, 'SELECT id FROM tasks WHERE id IN (SELECT value FROM json_each(@tasks))').all({
      tasks: JSON.stringify(taskIds),
    }) as Array<{ id: number }>
  ).map((r) => r.id);
}

/**
 * @module pg/queries/attention
 * The reads behind attention_inbox (`src/attention.ts`) on PostgreSQL. Scope travels as
 * array parameters (`= ANY($n)`, NULL for everywhere) where SQLite passes JSON; the
 * planner hints (INDEXED BY, CROSS JOIN) are SQLite's and are dropped. `metadata` is
 * JSON text, read with `::jsonb`. Bigint columns are read back as numbers.
 */
import type { AttentionClaim, AttentionEdit, AttentionScope, AttentionSubtask, OpenBlockerPost } from '../../attention';
import { pgClient } from '../store/_handle';
import type { PgStore } from '../store/pg-store';
import { numbered } from './_common';

const scope$ = (s: AttentionScope) => [
  s.repoRoots === null ? null : [...s.repoRoots],
  s.taskIds === null ? null : [...s.taskIds],
];
const IN_SCOPE = (root: string, task: string) =>
  `($1::text[] IS NULL OR ${root} = ANY($1)) AND ($2::bigint[] IS NULL OR ${task} = ANY($2))`;

async function all<R>(store: PgStore, sql: string, params: unknown[], numbers: readonly string[]): Promise<R[]> {
  const { rows } = await pgClient(store).query(sql, params);
  return rows.map((r) => numbered<R>(r, numbers));
}

const LIVE_CLAIMS_SQL = `SELECT c.id, c.task_id AS "taskId", c.file_path AS "filePath", c.session_id AS "sessionId",
    c.agent, c.state, c.refreshed_at AS "refreshedAt", c.expires_at AS "expiresAt", c.observation_id AS "observationId",
    t.repo_root AS "repoRoot", t.branch, t.title, s.last_heartbeat_at AS "lastHeartbeatAt", s.ended_at AS "endedAt", s.ide, s.cwd
  FROM file_claims c JOIN tasks t ON t.id = c.task_id JOIN sessions s ON s.id = c.session_id
  WHERE c.state IN ('active', 'handoff_pending') AND ${IN_SCOPE('t.repo_root', 'c.task_id')}
  ORDER BY c.refreshed_at DESC, c.id DESC LIMIT $3`;

/** Live claims in scope, most recently refreshed first, at most `limit`. */
export function liveClaimsInScope(store: PgStore, scope: AttentionScope, limit: number): Promise<AttentionClaim[]> {
  const numbers = ['id', 'taskId', 'refreshedAt', 'expiresAt', 'observationId', 'lastHeartbeatAt', 'endedAt'];
  return all<AttentionClaim>(store, LIVE_CLAIMS_SQL, [...scope$(scope), limit], numbers);
}

const CLAIMED_SUBTASKS_SQL = `SELECT s.task_id AS "taskId", p.slug AS "planSlug", s.subtask_index AS "subtaskIndex",
    s.title, p.repo_root AS "repoRoot", s.branch, s.claimed_by_session_id AS "sessionId",
    coalesce(s.claimed_by_agent, '') AS agent, coalesce(s.claimed_at, 0) AS "claimedAt",
    coalesce((SELECT k.observation_id FROM plan_subtask_claims k WHERE k.subtask_id = s.id AND k.state = 'active'),
      s.observation_id) AS "observationId",
    x.last_heartbeat_at AS "lastHeartbeatAt", x.ended_at AS "endedAt", x.ide, x.cwd
  FROM plan_subtasks s JOIN plans p ON p.id = s.plan_id JOIN sessions x ON x.id = s.claimed_by_session_id
  WHERE s.status = 'claimed' AND ${IN_SCOPE('p.repo_root', 's.task_id')}
  ORDER BY x.last_heartbeat_at DESC, s.id LIMIT $3`;

/** Claimed plan sub-tasks in scope, most recently heartbeating claimer first, at most `limit`. */
export function claimedSubtasksInScope(
  store: PgStore,
  scope: AttentionScope,
  limit: number,
): Promise<AttentionSubtask[]> {
  const numbers = ['taskId', 'subtaskIndex', 'claimedAt', 'observationId', 'lastHeartbeatAt', 'endedAt'];
  return all<AttentionSubtask>(store, CLAIMED_SUBTASKS_SQL, [...scope$(scope), limit], numbers);
}

const RECENT_EDITS_SQL = `SELECT o.id, o.task_id AS "taskId", o.session_id AS "sessionId", o.ts, o.file_path AS "filePath",
    t.repo_root AS "repoRoot"
  FROM (SELECT id, task_id, session_id, ts, metadata::jsonb ->> 'file_path' AS file_path
        FROM observations WHERE kind = 'edit' ORDER BY id DESC LIMIT $4) o
  JOIN tasks t ON t.id = o.task_id
  WHERE o.ts >= $3 AND o.file_path IS NOT NULL AND ${IN_SCOPE('t.repo_root', 'o.task_id')}
  ORDER BY o.id DESC`;

/** Edits in scope at or after `since`, among the newest `scan` edits, newest first. */
export function recentEditsInScope(
  store: PgStore,
  scope: AttentionScope,
  since: number,
  scan: number,
): Promise<AttentionEdit[]> {
  return all<AttentionEdit>(store, RECENT_EDITS_SQL, [...scope$(scope), since, scan], ['id', 'taskId', 'ts']);
}

const OPEN_BLOCKERS_SQL = `SELECT b.id, b.task_id AS "taskId", b.session_id AS "sessionId",
    coalesce(p.agent, '') AS agent, b.ts, substr(b.content, 1, 200) AS head
  FROM (SELECT id, task_id, session_id, ts, content FROM observations WHERE kind = 'blocker'
        ORDER BY id DESC LIMIT $2) b
  LEFT JOIN task_participants p ON p.task_id = b.task_id AND p.session_id = b.session_id
  WHERE b.task_id = ANY($1::bigint[])
    AND NOT EXISTS (SELECT 1 FROM observations r WHERE r.task_id = b.task_id AND r.id > b.id AND r.reply_to = b.id)
  ORDER BY b.id DESC LIMIT $3`;

/** Blocker posts on these threads nobody replied to, among the newest `scan` blockers; newest first. */
export function openBlockerPosts(
  store: PgStore,
  taskIds: readonly number[],
  scan: number,
  limit: number,
): Promise<OpenBlockerPost[]> {
  if (taskIds.length === 0) return Promise.resolve([]);
  return all<OpenBlockerPost>(store, OPEN_BLOCKERS_SQL, [[...taskIds], scan, limit], ['id', 'taskId', 'ts']);
}

const SESSION_THREADS_SQL = `SELECT t.id FROM task_participants p JOIN tasks t ON t.id = p.task_id
  WHERE p.session_id = $3 AND p.left_at IS NULL AND ${IN_SCOPE('t.repo_root', 't.id')}
  ORDER BY t.updated_at DESC, t.id DESC LIMIT $4`;

/** Ids of the threads a session takes part in, within scope, most recently updated first. */
export async function sessionThreadsInScope(
  store: PgStore,
  sessionId: string,
  scope: AttentionScope,
  limit: number,
): Promise<number[]> {
  const rows = await all<{ id: number }>(store, SESSION_THREADS_SQL, [...scope$(scope), sessionId, limit], ['id']);
  return rows.map((r) => r.id);
}

/** Which of these task ids exist. */
export async function existingTaskIds(store: PgStore, taskIds: readonly number[]): Promise<number[]> {
  if (taskIds.length === 0) return [];
  const rows = await all<{ id: number }>(
    store,
    'SELECT id FROM tasks WHERE id = ANY($1::bigint[])',
    [[...taskIds]],
    ['id'],
  );
  return rows.map((r) => r.id);
}

/**
 * @module pg/queries/lanes
 * The live lane map's reads (`src/lanes.ts`) on PostgreSQL: the same statements with
 * `$n` parameters, repository and session lists as `= ANY($n::text[])` (SQLite reads
 * them from `json_each`), counts as numbers, `holdsSubtask` as 0/1, text ties in byte
 * order (`COLLATE "C"`, as SQLite compares), and the working-note flag read from the
 * metadata JSON text (`true` or `1`, as SQLite's `json_extract(...) = 1` matches).
 */
import type { LaneClaim, LaneFilter, LaneRow, ScopeAttention, ScopeWarning } from '../../lanes';
import { noAttention, scopeAttentionOf } from '../../where/lanes';
import { pgClient } from '../store/_handle';
import type { PgStore } from '../store/pg-store';
import { numbered } from './_common';

const LANE_NUMBERS = [
  'taskId',
  'lastHeartbeatAt',
  'endedAt',
  'lastClaimAt',
  'lastEditAt',
  'liveClaimCount',
  'holdsSubtask',
];
const CLAIM_NUMBERS = ['taskId', 'claimedAt', 'refreshedAt'];

const LANE_COLUMNS = `SELECT p.session_id AS "sessionId", p.agent, s.ide, s.cwd, t.id AS "taskId", t.repo_root AS "repoRoot",
    t.branch, t.title, s.last_heartbeat_at AS "lastHeartbeatAt", s.ended_at AS "endedAt",
    (SELECT max(c.refreshed_at) FROM file_claims c WHERE c.session_id = p.session_id AND c.task_id = p.task_id) AS "lastClaimAt",
    (SELECT max(o.ts) FROM observations o WHERE o.session_id = p.session_id AND o.task_id = p.task_id
       AND o.kind = 'edit') AS "lastEditAt",
    (SELECT count(*) FROM file_claims c WHERE c.session_id = p.session_id AND c.task_id = p.task_id
       AND c.state IN ('active', 'handoff_pending')) AS "liveClaimCount",
    (EXISTS (SELECT 1 FROM plan_subtasks x WHERE x.task_id = t.id AND x.status = 'claimed'
       AND x.claimed_by_session_id = p.session_id))::int AS "holdsSubtask"
  FROM sessions s JOIN task_participants p ON p.session_id = s.id JOIN tasks t ON t.id = p.task_id`;
/** An open lane of the scope: `roots` is the parameter holding the repository roots. */
const openLane = (roots: string) => `p.left_at IS NULL AND t.status = 'active' AND t.repo_root = ANY(${roots}::text[])
    AND NOT EXISTS (SELECT 1 FROM plan_subtasks x WHERE x.task_id = t.id AND x.status = 'completed')`;

async function lanes(store: PgStore, text: string, values: unknown[]): Promise<LaneRow[]> {
  const { rows } = await pgClient(store).query(text, values);
  return rows.map((r) => numbered<LaneRow>(r as Record<string, unknown>, LANE_NUMBERS));
}

/** Lanes in scope: sessions heartbeating since `since`, newest heartbeat first, at most `limit`. */
export function lanesInScope(store: PgStore, filter: LaneFilter): Promise<LaneRow[]> {
  if (filter.repoRoots.length === 0) return Promise.resolve([]);
  return lanes(
    store,
    `${LANE_COLUMNS}
     WHERE s.last_heartbeat_at >= $1 AND ${openLane('$2')}
     ORDER BY s.last_heartbeat_at DESC, s.id COLLATE "C", t.id
     LIMIT $3`,
    [filter.since ?? Number.MIN_SAFE_INTEGER, [...filter.repoRoots], filter.limit],
  );
}

/** One session's open lanes in scope, whatever its heartbeat, newest thread activity first, at most `limit`. */
export function lanesOfSession(
  store: PgStore,
  sessionId: string,
  repoRoots: readonly string[],
  limit: number,
): Promise<LaneRow[]> {
  if (repoRoots.length === 0) return Promise.resolve([]);
  return lanes(
    store,
    `${LANE_COLUMNS} WHERE s.id = $1 AND ${openLane('$2')} ORDER BY t.updated_at DESC, t.id DESC LIMIT $3`,
    [sessionId, [...repoRoots], limit],
  );
}

const CLAIM_COLUMNS = `SELECT session_id AS "sessionId", task_id AS "taskId", file_path AS "filePath",
    claimed_at AS "claimedAt", refreshed_at AS "refreshedAt" FROM file_claims`;

async function claims(store: PgStore, text: string, values: unknown[]): Promise<LaneClaim[]> {
  const { rows } = await pgClient(store).query(text, values);
  return rows.map((r) => numbered<LaneClaim>(r as Record<string, unknown>, CLAIM_NUMBERS));
}

/** Live (active or handoff_pending) claims of these sessions, most recently refreshed first. */
export function liveClaimsOfSessions(store: PgStore, sessionIds: readonly string[]): Promise<LaneClaim[]> {
  if (sessionIds.length === 0) return Promise.resolve([]);
  return claims(
    store,
    `${CLAIM_COLUMNS} WHERE session_id = ANY($1::text[]) AND state IN ('active', 'handoff_pending')
      ORDER BY refreshed_at DESC, id DESC`,
    [[...new Set(sessionIds)]],
  );
}

/** Live (active or handoff_pending) claims on one task, newest refresh first, at most `limit`. */
export function liveClaimsOfTask(store: PgStore, taskId: number, limit: number): Promise<LaneClaim[]> {
  return claims(
    store,
    `${CLAIM_COLUMNS} WHERE task_id = $1 AND state IN ('active', 'handoff_pending')
      ORDER BY refreshed_at DESC, id DESC LIMIT $2`,
    [taskId, limit],
  );
}

/** Unread (not expired) messages and pending (not expired) batons on active threads of these repositories. */
export async function scopeAttention(
  store: PgStore,
  repoRoots: readonly string[],
  now: number,
  idLimit: number,
): Promise<ScopeAttention> {
  if (repoRoots.length === 0) {
    return noAttention();
  }
  const client = pgClient(store);
  const values = [[...repoRoots], now];
  const messages = (
    await client.query(
      `SELECT m.id, m.urgency FROM messages m JOIN tasks t ON t.id = m.task_id
        WHERE m.to_agent IN ('claude', 'codex', 'any') AND m.status = 'unread' AND (m.expires_at IS NULL OR m.expires_at > $2)
          AND t.repo_root = ANY($1::text[])`,
      values,
    )
  ).rows.map((r) => numbered<{ id: number; urgency: string }>(r as Record<string, unknown>, ['id']));
  const batons = (
    await client.query(
      `SELECT b.id, b.kind FROM batons b JOIN tasks t ON t.id = b.task_id
        WHERE b.status = 'pending' AND b.expires_at > $2 AND t.repo_root = ANY($1::text[])`,
      values,
    )
  ).rows.map((r) => numbered<{ id: number; kind: string }>(r as Record<string, unknown>, ['id']));
  return scopeAttentionOf(messages, batons, idLimit);
}

/** Available sub-tasks (every dependency completed) of active plans of these repositories. */
export async function countReadySubtasks(store: PgStore, repoRoots: readonly string[]): Promise<number> {
  if (repoRoots.length === 0) return 0;
  const { rows } = await pgClient(store).query(
    `SELECT count(*) AS n FROM plan_subtasks s JOIN plans p ON p.id = s.plan_id
      WHERE s.status = 'available' AND p.status = 'active' AND p.repo_root = ANY($1::text[])`,
    [[...repoRoots]],
  );
  return Number((rows[0] as { n: string }).n);
}

/** The newest observations of each of these kinds on threads of these repositories, at most `perKind` each, newest first. */
export async function scopeWarnings(
  store: PgStore,
  repoRoots: readonly string[],
  kinds: readonly string[],
  perKind: number,
): Promise<ScopeWarning[]> {
  if (repoRoots.length === 0 || kinds.length === 0) return [];
  // One statement, the newest `perKind` of each kind (a lateral per kind): one round trip,
  // and never two queries at once on a transaction's client.
  const { rows } = await pgClient(store).query(
    `SELECT w.* FROM unnest($1::text[]) AS k(kind) CROSS JOIN LATERAL (
       SELECT o.id, o.session_id AS "sessionId", o.kind, substr(o.content, 1, 200) AS text, o.ts, o.task_id AS "taskId"
         FROM observations o JOIN tasks t ON t.id = o.task_id
         WHERE o.kind = k.kind AND t.repo_root = ANY($2::text[])
         ORDER BY o.id DESC LIMIT $3) w`,
    [[...kinds], [...repoRoots], perKind],
  );
  return rows
    .map((r) => numbered<ScopeWarning>(r as Record<string, unknown>, ['id', 'ts', 'taskId']))
    .sort((a, b) => b.ts - a.ts || b.id - a.id);
}

/** The session's latest working note (task_note_working) on a task among its newest `scan` observations. */
export async function latestWorkingNote(
  store: PgStore,
  sessionId: string,
  taskId: number,
  scan: number,
): Promise<{ id: number; ts: number; text: string } | undefined> {
  const { rows } = await pgClient(store).query(
    `SELECT id, ts, substr(content, 1, 200) AS text FROM (
       SELECT id, ts, content, task_id, kind, metadata FROM observations WHERE session_id = $1 ORDER BY id DESC LIMIT $3) o
     WHERE task_id = $2 AND kind = 'note' AND (metadata::jsonb -> 'working') IN ('true'::jsonb, '1'::jsonb)
     ORDER BY id DESC LIMIT 1`,
    [sessionId, taskId, scan],
  );
  const row = rows[0] as Record<string, unknown> | undefined;
  return row === undefined ? undefined : numbered<{ id: number; ts: number; text: string }>(row, ['id', 'ts']);
}

/**
 * @module pg/queries/mesh-inbox
 * One recipient's inbox of `src/mesh-inbox.ts` on PostgreSQL. Marking read is the same
 * guarded UPDATE (`read_at IS NULL`): under READ COMMITTED the second of two racing
 * readers re-checks the guard after the first commits and changes nothing.
 */
import type { InboxMeshMessage, MeshInboxFilter } from '../../mesh-inbox';
import { pgClient } from '../store/_handle';
import type { PgStore } from '../store/pg-store';
import { execute } from './_common';

/** Messages addressed to an agent, oldest first. */
export async function listMeshInbox(store: PgStore, filter: MeshInboxFilter): Promise<InboxMeshMessage[]> {
  const unread = filter.unreadOnly ? 'AND r.read_at IS NULL' : '';
  const { rows } = await pgClient(store).query(
    `SELECT m.id, m.from_agent AS "fromAgent", o.content AS body, m.message_type AS "messageType", m.priority,
       m.thread_id AS "threadId", m.requires_confirmation AS "requiresConfirmation", m.confirms_id AS "confirmsId",
       m.created_at AS "createdAt", r.read_at AS "readAt"
     FROM mesh_message_recipients r
     JOIN mesh_messages m ON m.id = r.message_id
     JOIN observations o ON o.id = m.id
     WHERE r.agent = $1 ${unread}
       AND ($2::text IS NULL OR m.priority = $2) AND ($3::text IS NULL OR m.message_type = $3)
       AND ($4::text IS NULL OR m.thread_id = $4) AND ($5::text IS NULL OR m.from_agent = $5)
     ORDER BY r.message_id LIMIT $6`,
    [
      filter.agent,
      filter.priority ?? null,
      filter.messageType ?? null,
      filter.threadId ?? null,
      filter.fromAgent ?? null,
      filter.limit,
    ],
  );
  const num = (v: unknown) => (v === null ? null : Number(v));
  return rows.map((r: Record<string, unknown>) => ({
    id: Number(r.id),
    fromAgent: r.fromAgent as string,
    body: r.body as string,
    messageType: r.messageType as string,
    priority: r.priority as string,
    threadId: r.threadId as string | null,
    requiresConfirmation: r.requiresConfirmation === true,
    confirmsId: num(r.confirmsId),
    createdAt: Number(r.createdAt),
    readAt: num(r.readAt),
  }));
}

/** Marks one recipient's copy read; false when it already was (or is not addressed to them). */
export async function markMeshMessageRead(
  store: PgStore,
  messageId: number,
  agent: string,
  now: number,
): Promise<boolean> {
  const sql =
    'UPDATE mesh_message_recipients SET read_at = $1 WHERE message_id = $2 AND agent = $3 AND read_at IS NULL';
  return (await execute(store, sql, [now, messageId, agent])) > 0;
}

export async function countMeshUnread(store: PgStore, agent: string): Promise<number> {
  const sql = 'SELECT COUNT(*) AS n FROM mesh_message_recipients WHERE agent = $1 AND read_at IS NULL';
  const { rows } = await pgClient(store).query(sql, [agent]);
  return Number(rows[0]?.n);
}

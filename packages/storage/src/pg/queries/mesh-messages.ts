/**
 * @module pg/queries/mesh-messages
 * Agent messages of `src/mesh-messages.ts` on PostgreSQL: the message row and one
 * recipient row each (one multi-row INSERT), thread membership, counts. SQLite's 0/1
 * `requires_confirmation` is a boolean column here.
 */
import type { NewMeshMessage, ThreadMembership } from '../../mesh-messages';
import { pgClient } from '../store/_handle';
import type { PgStore } from '../store/pg-store';

export async function insertMeshMessage(
  store: PgStore,
  message: NewMeshMessage,
  recipients: readonly string[],
): Promise<void> {
  const m = message;
  await pgClient(store).query(
    `INSERT INTO mesh_messages (id, from_agent, message_type, priority, thread_id, requires_confirmation, confirms_id,
       created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [m.id, m.fromAgent, m.messageType, m.priority, m.threadId, m.requiresConfirmation, m.confirmsId, m.createdAt],
  );
  if (recipients.length === 0) return;
  // unnest keeps the order of `recipients`; a duplicate fails on the key as SQLite's loop does.
  await pgClient(store).query(
    'INSERT INTO mesh_message_recipients (message_id, agent) SELECT $1, a FROM unnest($2::text[]) WITH ORDINALITY AS t(a, n) ORDER BY n',
    [m.id, [...recipients]],
  );
}

export async function meshThreadMembership(store: PgStore, threadId: string, agent: string): Promise<ThreadMembership> {
  const { rows } = await pgClient(store).query(
    `SELECT EXISTS (SELECT 1 FROM mesh_messages WHERE thread_id = $1) AS present,
       EXISTS (SELECT 1 FROM mesh_messages m WHERE m.thread_id = $1 AND (m.from_agent = $2
         OR EXISTS (SELECT 1 FROM mesh_message_recipients r WHERE r.message_id = m.id AND r.agent = $2))) AS member`,
    [threadId, agent],
  );
  return { exists: rows[0]?.present === true, member: rows[0]?.member === true };
}

/** Message rows and recipient rows, for tests and status. */
export async function countMeshMessages(store: PgStore): Promise<{ messages: number; recipients: number }> {
  const { rows } = await pgClient(store).query(
    'SELECT (SELECT COUNT(*) FROM mesh_messages) AS messages, (SELECT COUNT(*) FROM mesh_message_recipients) AS recipients',
  );
  return { messages: Number(rows[0]?.messages), recipients: Number(rows[0]?.recipients) };
}

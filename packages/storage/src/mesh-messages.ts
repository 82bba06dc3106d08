/**
 * @module mesh-messages
 * Agent messages of seed 001. A message row is keyed by the observation holding its
 * body; each recipient has a row with its own read flag, so one broadcast is read
 * separately by each of its recipients (a recipient's inbox: mesh-inbox.ts).
 */
import { type Store, statement } from './_store';

export interface NewMeshMessage {
  /** The observation id holding the body. */
  readonly id: number;
  readonly fromAgent: string;
  readonly messageType: string;
  readonly priority: string;
  readonly threadId: string | null;
  readonly requiresConfirmation: boolean;
  readonly confirmsId: number | null;
  readonly createdAt: number;
}

export function insertMeshMessage(store: Store, message: NewMeshMessage, recipients: readonly string[]): void {
  statement(
    store,
    `INSERT INTO mesh_messages (id, from_agent, message_type, priority, thread_id, requires_confirmation, confirms_id, created_at)
     VALUES (@id, @fromAgent, @messageType, @priority, @threadId, @requiresConfirmation, @confirmsId, @createdAt)`,
  ).run({ ...message, requiresConfirmation: message.requiresConfirmation ? 1 : 0 });
  const insert = statement(store, 'INSERT INTO mesh_message_recipients (message_id, agent) VALUES (?, ?)');
  for (const agent of recipients) insert.run(message.id, agent);
}

export interface ThreadMembership {
  /** Some message already uses this thread id. */
  readonly exists: boolean;
  /** The agent sent or received a message of the thread. */
  readonly member: boolean;
}

export function meshThreadMembership(store: Store, threadId: string, agent: string): ThreadMembership {
  const row = statement(
    store,
    `SELECT EXISTS (SELECT 1 FROM mesh_messages WHERE thread_id = @threadId) AS present,
       EXISTS (SELECT 1 FROM mesh_messages m WHERE m.thread_id = @threadId AND (m.from_agent = @agent
         OR EXISTS (SELECT 1 FROM mesh_message_recipients r WHERE r.message_id = m.id AND r.agent = @agent))) AS member`,
  ).get({ threadId, agent }) as { present: number; member: number };
  return { exists: row.present === 1, member: row.member === 1 };
}

/** Message rows and recipient rows, for tests and status. */
export function countMeshMessages(store: Store): { messages: number; recipients: number } {
  return statement(
    store,
    `SELECT (SELECT COUNT(*) FROM mesh_messages) AS messages, (SELECT COUNT(*) FROM mesh_message_recipients) AS recipients`,
  ).get() as { messages: number; recipients: number };
}

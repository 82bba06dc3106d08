/**
 * @module mesh-messages
 * Agent messages of seed 001. A message row is keyed by the observation holding its
 * body; each recipient has a row with its own read flag, so one broadcast is read
 * separately by each of its recipients. Marking read is a guarded UPDATE
 * (`read_at IS NULL`), so of two readers racing, one marks a message.
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

/** A message as one recipient's inbox lists it: the row, its body and the recipient's read time. */
export interface InboxMeshMessage extends NewMeshMessage {
  readonly body: string;
  readonly readAt: number | null;
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

export interface MeshInboxFilter {
  readonly agent: string;
  readonly unreadOnly: boolean;
  readonly priority?: string;
  readonly messageType?: string;
  readonly threadId?: string;
  readonly fromAgent?: string;
  readonly limit: number;
}

/** Messages addressed to an agent, oldest first. */
export function listMeshInbox(store: Store, filter: MeshInboxFilter): InboxMeshMessage[] {
  const where = ['r.agent = @agent'];
  if (filter.unreadOnly) where.push('r.read_at IS NULL');
  // Absent filters bind NULL and match everything: one statement text for every combination.
  where.push(
    '(@priority IS NULL OR m.priority = @priority)',
    '(@messageType IS NULL OR m.message_type = @messageType)',
    '(@threadId IS NULL OR m.thread_id = @threadId)',
    '(@fromAgent IS NULL OR m.from_agent = @fromAgent)',
  );
  const rows = statement(
    store,
    `SELECT m.id, m.from_agent AS fromAgent, o.content AS body, m.message_type AS messageType, m.priority,
       m.thread_id AS threadId, m.requires_confirmation AS requiresConfirmation, m.confirms_id AS confirmsId,
       m.created_at AS createdAt, r.read_at AS readAt
     FROM mesh_message_recipients r
     JOIN mesh_messages m ON m.id = r.message_id
     JOIN observations o ON o.id = m.id
     WHERE ${where.join(' AND ')}
     ORDER BY r.message_id LIMIT @limit`,
  ).all({
    agent: filter.agent,
    priority: filter.priority ?? null,
    messageType: filter.messageType ?? null,
    threadId: filter.threadId ?? null,
    fromAgent: filter.fromAgent ?? null,
    limit: filter.limit,
  }) as Array<Omit<InboxMeshMessage, 'requiresConfirmation'> & { requiresConfirmation: number }>;
  return rows.map((r) => ({ ...r, requiresConfirmation: r.requiresConfirmation === 1 }));
}

/** Marks one recipient's copy read; false when it already was (or is not addressed to them). */
export function markMeshMessageRead(store: Store, messageId: number, agent: string, now: number): boolean {
  return (
    statement(
      store,
      'UPDATE mesh_message_recipients SET read_at = ? WHERE message_id = ? AND agent = ? AND read_at IS NULL',
    ).run(now, messageId, agent).changes > 0
  );
}

export function countMeshUnread(store: Store, agent: string): number {
  return (
    statement(store, 'SELECT COUNT(*) AS n FROM mesh_message_recipients WHERE agent = ? AND read_at IS NULL').get(
      agent,
    ) as { n: number }
  ).n;
}

/** Message rows and recipient rows, for tests and status. */
export function countMeshMessages(store: Store): { messages: number; recipients: number } {
  return statement(
    store,
    `SELECT (SELECT COUNT(*) FROM mesh_messages) AS messages, (SELECT COUNT(*) FROM mesh_message_recipients) AS recipients`,
  ).get() as { messages: number; recipients: number };
}

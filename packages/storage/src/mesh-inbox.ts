/**
 * @module mesh-inbox
 * One recipient's copies of seed-001 agent messages: the inbox with its filters, the
 * unread count, and marking read. Marking read is a guarded UPDATE (`read_at IS NULL`),
 * so of two readers racing, one marks a message.
 */
import { type Store, statement } from './_store';
import type { NewMeshMessage } from './mesh-messages';

/** A message as one recipient's inbox lists it: the row, its body and the recipient's read time. */
export interface InboxMeshMessage extends NewMeshMessage {
  readonly body: string;
  readonly readAt: number | null;
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

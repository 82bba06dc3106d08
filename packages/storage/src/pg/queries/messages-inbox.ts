/**
 * @module pg/queries/messages-inbox
 * `listInboxMessages` of `src/messages.ts` on PostgreSQL: same filters, rows and order
 * (newest first, ties by id descending); lists travel as array parameters.
 */
import type { InboxFilter, InboxMessage } from '../../messages';
import { pgClient } from '../store/_handle';
import type { PgStore } from '../store/pg-store';

const HEAD_CHARS = 400;
const NUMBERS = ['id', 'taskId', 'createdAt', 'expiresAt', 'statusChangedAt', 'claimedAt', 'replyTo'] as const;

export async function listInboxMessages(store: PgStore, filter: InboxFilter): Promise<InboxMessage[]> {
  const params: unknown[] = [filter.sessionId, filter.agent, filter.limit];
  const where = [
    'm.from_session_id <> $1',
    `(m.to_session_id = $1 OR (m.to_session_id IS NULL AND (m.to_agent = 'any' OR m.to_agent = $2)))`,
    `m.status <> 'retracted'`,
    '(m.claimed_by_session_id IS NULL OR m.claimed_by_session_id = $1)',
  ];
  const add = (clause: (n: string) => string, value: unknown) => {
    params.push(value);
    where.push(clause(`$${params.length}`));
  };
  if (filter.unreadOnly)
    add((n) => `m.status = 'unread' AND (m.expires_at IS NULL OR m.expires_at > ${n})`, filter.now);
  if (filter.sinceTs !== undefined) add((n) => `m.created_at > ${n}`, filter.sinceTs);
  if (filter.taskIds !== undefined) add((n) => `m.task_id = ANY(${n}::bigint[])`, [...filter.taskIds]);
  if (filter.urgencies !== undefined) add((n) => `m.urgency = ANY(${n}::text[])`, [...filter.urgencies]);
  const { rows } = await pgClient(store).query(
    `SELECT m.id, m.task_id AS "taskId", m.from_session_id AS "fromSessionId", m.from_agent AS "fromAgent",
       m.to_agent AS "toAgent", m.to_session_id AS "toSessionId", m.urgency, m.status, m.reply_to AS "replyTo",
       m.created_at AS "createdAt", m.expires_at AS "expiresAt", m.status_changed_at AS "statusChangedAt",
       m.claimed_by_session_id AS "claimedBySessionId", m.claimed_by_agent AS "claimedByAgent", m.claimed_at AS "claimedAt",
       substr(o.content, 1, ${HEAD_CHARS}) AS head
     FROM messages m
     JOIN task_participants p ON p.task_id = m.task_id AND p.session_id = $1 AND p.left_at IS NULL
     JOIN observations o ON o.id = m.id
     WHERE ${where.join(' AND ')}
     ORDER BY m.created_at DESC, m.id DESC LIMIT $3`,
    params,
  );
  return rows.map((r: Record<string, unknown>) => {
    const out: Record<string, unknown> = { ...r };
    for (const k of NUMBERS) out[k] = r[k] == null ? null : Number(r[k]);
    return out as unknown as InboxMessage;
  });
}

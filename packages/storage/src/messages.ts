/**
 * @module messages
 * Queries for directed and broadcast messages. A message row is keyed by the
 * observation holding its body; the row carries addressing and the lifecycle
 * unread -> read -> replied, or -> expired / retracted. Every transition is a guarded
 * UPDATE (`WHERE status ...`) that reports whether it changed the row, so of many
 * processes racing one transition inside `store.write` exactly one wins.
 *
 * "Expired" is also computed: an unread row whose expires_at has passed is expired
 * whether or not its status has been rewritten, so every query here takes `now`.
 */
import { count, eq } from 'drizzle-orm';
import { dbOf, type Store, statement } from './_store';
import { messages } from './schema';

export type Message = typeof messages.$inferSelect;
export type NewMessage = Omit<Message, 'claimedBySessionId' | 'claimedByAgent' | 'claimedAt'>;

/** A message as an inbox lists it: the row plus the head of its body, for a preview. */
export interface InboxMessage extends Message {
  readonly head: string;
}

/** Characters of the body an inbox query reads, enough for any preview. */
const HEAD_CHARS = 400;

/** An unread row past its TTL: `status = 'unread' AND expires_at <= now`. */
const PAST_TTL = `(status = 'unread' AND expires_at IS NOT NULL AND expires_at <= ?)`;

export function insertMessage(store: Store, row: NewMessage): void {
  dbOf(store).insert(messages).values(row).run();
}

export function getMessage(store: Store, id: number): Message | undefined {
  return dbOf(store).select().from(messages).where(eq(messages.id, id)).get();
}

export function countMessages(store: Store): number {
  return dbOf(store).select({ n: count() }).from(messages).get()?.n ?? 0;
}

/** The status a reader should see at `now`: unread past its TTL reads as expired. */
export function effectiveStatus(message: Pick<Message, 'status' | 'expiresAt'>, now: number): string {
  if (message.status === 'unread' && message.expiresAt !== null && message.expiresAt <= now) return 'expired';
  return message.status;
}

/** unread -> read, unless past its TTL. */
export function markMessageRead(store: Store, id: number, now: number): boolean {
  return changed(
    statement(
      store,
      `UPDATE messages SET status = 'read', status_changed_at = ? WHERE id = ? AND status = 'unread' AND NOT ${PAST_TTL}`,
    ).run(now, id, now),
  );
}

/** unread past its TTL -> expired (writing down what reads already compute). */
export function expireMessage(store: Store, id: number, now: number): boolean {
  return changed(
    statement(store, `UPDATE messages SET status = 'expired', status_changed_at = ? WHERE id = ? AND ${PAST_TTL}`).run(
      now,
      id,
      now,
    ),
  );
}

/** unread or read -> replied, unless expired. */
export function markMessageReplied(store: Store, id: number, now: number): boolean {
  return changed(
    statement(
      store,
      `UPDATE messages SET status = 'replied', status_changed_at = ? WHERE id = ? AND status IN ('unread', 'read') AND NOT ${PAST_TTL}`,
    ).run(now, id, now),
  );
}

/** Anything not yet replied to or retracted -> retracted. */
export function retractMessage(store: Store, id: number, now: number): boolean {
  return changed(
    statement(
      store,
      `UPDATE messages SET status = 'retracted', status_changed_at = ? WHERE id = ? AND status IN ('unread', 'read', 'expired')`,
    ).run(now, id),
  );
}

/** Takes an unclaimed, live broadcast for one session. */
export function claimMessage(store: Store, id: number, sessionId: string, agent: string, now: number): boolean {
  return changed(
    statement(
      store,
      `UPDATE messages SET claimed_by_session_id = ?, claimed_by_agent = ?, claimed_at = ?
       WHERE id = ? AND claimed_by_session_id IS NULL AND to_agent = 'any' AND to_session_id IS NULL
         AND status IN ('unread', 'read', 'replied') AND NOT ${PAST_TTL}`,
    ).run(sessionId, agent, now, id, now),
  );
}

export interface InboxFilter {
  readonly sessionId: string;
  readonly agent: string;
  readonly now: number;
  /** Only unread rows within their TTL (the default inbox); otherwise every visible row. */
  readonly unreadOnly: boolean;
  /** Only messages created after this. */
  readonly sinceTs?: number;
  readonly taskIds?: readonly number[];
  readonly urgencies?: readonly string[];
  readonly limit: number;
}

/**
 * Messages addressed to a session, newest first, on threads it takes part in: sent to
 * it by id, to its agent with no session named, or broadcast. Never its own, never
 * retracted ones, never broadcasts another session has claimed.
 */
export function listInboxMessages(store: Store, filter: InboxFilter): InboxMessage[] {
  const where = [
    'm.from_session_id <> @session',
    `(m.to_session_id = @session OR (m.to_session_id IS NULL AND (m.to_agent = 'any' OR m.to_agent = @agent)))`,
    `m.status <> 'retracted'`,
    '(m.claimed_by_session_id IS NULL OR m.claimed_by_session_id = @session)',
  ];
  const params: Record<string, unknown> = { session: filter.sessionId, agent: filter.agent, limit: filter.limit };
  if (filter.unreadOnly) {
    where.push(`m.status = 'unread' AND (m.expires_at IS NULL OR m.expires_at > @now)`);
    params.now = filter.now;
  }
  if (filter.sinceTs !== undefined) {
    where.push('m.created_at > @since');
    params.since = filter.sinceTs;
  }
  // Lists travel as one JSON parameter, so the statement text (and its cache entry) stays fixed.
  if (filter.taskIds !== undefined) {
    where.push('m.task_id IN (SELECT value FROM json_each(@taskIds))');
    params.taskIds = JSON.stringify(filter.taskIds);
  }
  if (filter.urgencies !== undefined) {
    where.push('m.urgency IN (SELECT value FROM json_each(@urgencies))');
    params.urgencies = JSON.stringify(filter.urgencies);
  }
  return statement(
    store,
    `SELECT m.id, m.task_id AS taskId, m.from_session_id AS fromSessionId, m.from_agent AS fromAgent,
       m.to_agent AS toAgent, m.to_session_id AS toSessionId, m.urgency, m.status, m.reply_to AS replyTo,
       m.created_at AS createdAt, m.expires_at AS expiresAt, m.status_changed_at AS statusChangedAt,
       m.claimed_by_session_id AS claimedBySessionId, m.claimed_by_agent AS claimedByAgent, m.claimed_at AS claimedAt,
       substr(o.content, 1, ${HEAD_CHARS}) AS head
     FROM messages m
     JOIN task_participants p ON p.task_id = m.task_id AND p.session_id = @session AND p.left_at IS NULL
     JOIN observations o ON o.id = m.id
     WHERE ${where.join(' AND ')}
     ORDER BY m.created_at DESC, m.id DESC LIMIT @limit`,
  ).all(params) as InboxMessage[];
}

function changed(result: { changes: number }): boolean {
  return result.changes > 0;
}

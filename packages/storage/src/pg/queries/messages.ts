/**
 * @module pg/queries/messages
 * The message queries of `src/messages.ts` on PostgreSQL: every status change and the
 * broadcast claim are guarded UPDATEs (one caller wins); the inbox read is in
 * messages-inbox.ts. `effectiveStatus` is a pure helper, not twinned.
 */
import { count, eq } from 'drizzle-orm';
import type { Message, NewMessage } from '../../messages';
import { pgTables } from '../schema';
import { pgClient, pgDb } from '../store/_handle';
import type { PgStore } from '../store/pg-store';

const { messages } = pgTables;

/** An unread row past its TTL at `$1`. */
const PAST_TTL = `(status = 'unread' AND expires_at IS NOT NULL AND expires_at <= $1)`;
const SET_STATUS = (status: string) => `UPDATE messages SET status = '${status}', status_changed_at = $1 WHERE id = $2`;

const run = async (store: PgStore, text: string, params: unknown[]): Promise<boolean> =>
  (await pgClient(store).query(`${text} RETURNING id`, params)).rows.length > 0;

export async function insertMessage(store: PgStore, row: NewMessage): Promise<void> {
  await pgDb(store).insert(messages).values(row);
}

export async function getMessage(store: PgStore, id: number): Promise<Message | undefined> {
  return (await pgDb(store).select().from(messages).where(eq(messages.id, id)).limit(1))[0] as Message | undefined;
}

export async function countMessages(store: PgStore): Promise<number> {
  return Number((await pgDb(store).select({ n: count() }).from(messages))[0]?.n ?? 0);
}

export async function markMessageRead(store: PgStore, id: number, now: number): Promise<boolean> {
  return run(store, `${SET_STATUS('read')} AND status = 'unread' AND NOT ${PAST_TTL}`, [now, id]);
}

export async function expireMessage(store: PgStore, id: number, now: number): Promise<boolean> {
  return run(store, `${SET_STATUS('expired')} AND ${PAST_TTL}`, [now, id]);
}

export async function markMessageReplied(store: PgStore, id: number, now: number): Promise<boolean> {
  return run(store, `${SET_STATUS('replied')} AND status IN ('unread', 'read') AND NOT ${PAST_TTL}`, [now, id]);
}

export async function retractMessage(store: PgStore, id: number, now: number): Promise<boolean> {
  return run(store, `${SET_STATUS('retracted')} AND status IN ('unread', 'read', 'expired')`, [now, id]);
}

export async function claimMessage(
  store: PgStore,
  id: number,
  sessionId: string,
  agent: string,
  now: number,
): Promise<boolean> {
  return run(
    store,
    `UPDATE messages SET claimed_by_session_id = $3, claimed_by_agent = $4, claimed_at = $1
     WHERE id = $2 AND claimed_by_session_id IS NULL AND to_agent = 'any' AND to_session_id IS NULL
       AND status IN ('unread', 'read', 'replied') AND NOT ${PAST_TTL}`,
    [now, id, sessionId, agent],
  );
}

/**
 * @module messages/message-service
 * Directed and broadcast messages between agents on a task thread. The body is an
 * observation of kind `message`; the `messages` row carries addressing and the
 * lifecycle. Every transition runs inside `store.write` (BEGIN IMMEDIATE) as a
 * guarded update, with its audit observation in the same transaction, so of racing
 * processes exactly one wins and the loser is told why with a stable code.
 */
import {
  claimMessage,
  effectiveStatus,
  expireMessage,
  getSession,
  insertMessage,
  listInboxMessages,
  type Message,
  markMessageRead,
  markMessageReplied,
  retractMessage,
} from '@swarm/storage';
import {
  ColonyError,
  type MessageBackend,
  type MessageClaimed,
  type MessageEntry,
  type MessageSent,
  type MessageStatus,
  type MessageStatusResult,
  type TaskMessageClaimInput,
  type TaskMessageInput,
  type TaskMessageMarkReadInput,
  type TaskMessageRetractInput,
  type TaskMessagesInput,
} from '@swarm/tools';
import { mapInOrder } from '../_in-order';
import {
  appendObservation,
  type DomainContext,
  ensureSession,
  requireParticipant,
  requireSession,
  requireTask,
} from '../context';
import { isBroadcast, lockedMessage, recipientRefusal, toEntry } from './message-rules';

export const MESSAGE_KIND = 'message';
export const MESSAGE_READ_KIND = 'message_read';
export const MESSAGE_RETRACT_KIND = 'message_retract';
export const MESSAGE_CLAIM_KIND = 'message_claim';

const MINUTE_MS = 60_000;

export interface UrgentUnreadQuery {
  readonly sessionId: string;
  /** Default: the agent the session registered as (sessions.agent). */
  readonly agent?: string;
  /** Default 20. */
  readonly limit?: number;
}

export class MessageService implements MessageBackend {
  readonly #ctx: DomainContext;

  constructor(ctx: DomainContext) {
    this.#ctx = ctx;
  }

  send(args: TaskMessageInput): Promise<MessageSent> {
    const ctx = this.#ctx;
    return ctx.store.write(async () => {
      const task = await requireTask(ctx, args.task_id);
      await requireParticipant(ctx, task, args.session_id);
      if (args.to_session_id !== undefined) {
        if (args.to_session_id === args.session_id) {
          throw new ColonyError(
            'INVALID_PARAMETERS',
            'to_session_id is your own session: a message needs a recipient',
            {
              details: { fields: ['to_session_id'] },
            },
          );
        }
        await requireSession(ctx, args.to_session_id, 'to_session_id');
      }
      const now = ctx.clock.now();
      const parent = args.reply_to === undefined ? undefined : await lockedMessage(ctx, args.reply_to, task.id);
      if (parent?.status === 'retracted') {
        throw new ColonyError('ALREADY_RETRACTED', `message #${parent.id} was retracted by its sender`, {
          details: { reply_to: parent.id },
        });
      }
      // Only a recipient's reply answers the parent; the sender following up does not.
      const answers = parent !== undefined && recipientRefusal(parent, args.session_id, args.agent) === null;
      const parentStatus = parent && effectiveStatus(parent, now);
      const claims = answers && isBroadcast(parent) && parent.claimedBySessionId === null && parentStatus !== 'expired';
      const expiresAt = args.expires_in_minutes === undefined ? null : now + args.expires_in_minutes * MINUTE_MS;
      const id = await appendObservation(ctx, {
        sessionId: args.session_id,
        taskId: task.id,
        kind: MESSAGE_KIND,
        content: args.content,
        replyTo: args.reply_to ?? null,
        metadata: {
          from_agent: args.agent,
          to_agent: args.to_agent,
          to_session_id: args.to_session_id ?? null,
          urgency: args.urgency,
          expires_at: expiresAt,
          ...(claims ? { claimed_reply_to: true } : {}),
        },
      });
      await insertMessage(ctx.store, {
        id,
        taskId: task.id,
        fromSessionId: args.session_id,
        fromAgent: args.agent,
        toAgent: args.to_agent,
        toSessionId: args.to_session_id ?? null,
        urgency: args.urgency,
        status: 'unread',
        replyTo: args.reply_to ?? null,
        createdAt: now,
        expiresAt,
        statusChangedAt: now,
      });
      if (parent && answers) {
        await markMessageReplied(ctx.store, parent.id, now);
        if (claims) await claimMessage(ctx.store, parent.id, args.session_id, args.agent, now);
      }
      return { message_observation_id: id, status: 'unread' };
    });
  }

  list(args: TaskMessagesInput): Promise<MessageEntry[]> {
    // An unknown session has an empty inbox (messages to its agent aside): answered, not refused.
    return this.#entries({
      sessionId: args.session_id,
      agent: args.agent,
      unreadOnly: args.unread_only,
      limit: args.limit,
      ...(args.since_ts === undefined ? {} : { sinceTs: args.since_ts }),
      ...(args.task_ids === undefined ? {} : { taskIds: args.task_ids }),
    });
  }

  /**
   * Unread, unexpired needs_reply and blocking messages addressed to a session:
   * blocking first, then needs_reply, newest first within each (what a session-start
   * preface shows). An unknown session has none.
   */
  async urgentUnread(query: UrgentUnreadQuery): Promise<MessageEntry[]> {
    const limit = query.limit ?? 20;
    const agent = query.agent ?? (await getSession(this.#ctx.store, query.sessionId))?.agent ?? '';
    const base = { sessionId: query.sessionId, agent, unreadOnly: true };
    const blocking = await this.#entries({ ...base, urgencies: ['blocking'], limit });
    if (blocking.length >= limit) return blocking;
    return [
      ...blocking,
      ...(await this.#entries({ ...base, urgencies: ['needs_reply'], limit: limit - blocking.length })),
    ];
  }

  async markRead(args: TaskMessageMarkReadInput): Promise<MessageStatusResult> {
    const outcome = await this.#ctx.store.write(() => this.#markOne(args));
    if ('expired' in outcome) throw expired(outcome.expired);
    return { status: outcome.status };
  }

  /**
   * Marks several messages of one reader read in ONE transaction (the runtime's
   * mailbox consume: every message that goes into a prompt is read, or none is). A
   * refusal for any id (not a message, not addressed to the reader...) rolls back the
   * whole batch. A message that was retracted or expired since it was listed is not a
   * refusal here: its status comes back ('retracted', 'expired') so the caller leaves it
   * out; one already read comes back 'read' with `newly_read` false.
   */
  markReadAll(args: {
    readonly session_id: string;
    readonly task_id?: number;
    readonly message_observation_ids: readonly number[];
  }): Promise<{ id: number; status: MessageStatus; newly_read: boolean }[]> {
    return this.#ctx.store.write(() =>
      mapInOrder(args.message_observation_ids, async (id) => {
        const ref = {
          message_observation_id: id,
          session_id: args.session_id,
          ...(args.task_id === undefined ? {} : { task_id: args.task_id }),
        };
        try {
          const outcome = await this.#markOne(ref);
          if ('expired' in outcome) return { id, status: 'expired' as const, newly_read: false };
          return { id, status: outcome.status, newly_read: outcome.status === 'read' && !('was' in outcome) };
        } catch (error) {
          if (error instanceof ColonyError && error.code === 'ALREADY_RETRACTED') {
            return { id, status: 'retracted' as const, newly_read: false };
          }
          throw error;
        }
      }),
    );
  }

  /** One read inside the caller's write: the new status, the prior one when nothing changed, or expired. */
  async #markOne(
    args: TaskMessageMarkReadInput,
  ): Promise<(MessageStatusResult & { was?: true }) | { expired: Message }> {
    const ctx = this.#ctx;
    const message = await lockedMessage(ctx, args.message_observation_id, args.task_id);
    const participant = await requireParticipant(ctx, await requireTask(ctx, message.taskId), args.session_id);
    const refusal = recipientRefusal(message, args.session_id, participant.agent);
    if (refusal) throw refusal;
    const now = ctx.clock.now();
    const status = effectiveStatus(message, now) as MessageStatus;
    if (status === 'retracted') throw retracted(message);
    if (status === 'expired') {
      // Written down before refusing, so the expiry is on record for every later reader.
      await expireMessage(ctx.store, message.id, now);
      return { expired: message };
    }
    if (status !== 'unread') return { status, was: true };
    if (!(await markMessageRead(ctx.store, message.id, now)))
      throw new Error(`message #${message.id} changed mid-write`);
    await appendObservation(ctx, {
      sessionId: args.session_id,
      taskId: message.taskId,
      kind: MESSAGE_READ_KIND,
      content: `read message #${message.id} from ${message.fromAgent}`,
      replyTo: message.id,
      metadata: {
        message_id: message.id,
        from_session_id: message.fromSessionId,
        read_by_agent: participant.agent,
        urgency: message.urgency,
      },
    });
    return { status: 'read' };
  }

  retract(args: TaskMessageRetractInput): Promise<MessageStatusResult> {
    const ctx = this.#ctx;
    return ctx.store.write(async () => {
      const message = await lockedMessage(ctx, args.message_observation_id, args.task_id);
      await ensureSession(ctx, args.session_id);
      if (message.fromSessionId !== args.session_id) {
        throw new ColonyError('NOT_SENDER', `only the sender of message #${message.id} may retract it`, {
          details: { message_observation_id: message.id, from_session_id: message.fromSessionId },
        });
      }
      if (message.status === 'retracted') throw retracted(message);
      if (message.status === 'replied') {
        throw new ColonyError('ALREADY_REPLIED', `message #${message.id} has a reply and can no longer be retracted`, {
          details: { message_observation_id: message.id },
        });
      }
      const now = ctx.clock.now();
      if (!(await retractMessage(ctx.store, message.id, now)))
        throw new Error(`message #${message.id} changed mid-write`);
      await appendObservation(ctx, {
        sessionId: args.session_id,
        taskId: message.taskId,
        kind: MESSAGE_RETRACT_KIND,
        content: `retracted message #${message.id}${args.reason ? `: ${args.reason}` : ''}`,
        replyTo: message.id,
        metadata: { message_id: message.id, reason: args.reason ?? null },
      });
      return { status: 'retracted' };
    });
  }

  claim(args: TaskMessageClaimInput): Promise<MessageClaimed> {
    const ctx = this.#ctx;
    return ctx.store.write(async () => {
      const message = await lockedMessage(ctx, args.message_observation_id);
      if (!isBroadcast(message)) {
        throw new ColonyError('NOT_BROADCAST', `message #${message.id} is directed; only broadcasts can be claimed`, {
          details: {
            message_observation_id: message.id,
            to_agent: message.toAgent,
            to_session_id: message.toSessionId,
          },
        });
      }
      await requireParticipant(ctx, await requireTask(ctx, message.taskId), args.session_id);
      if (message.fromSessionId === args.session_id) {
        throw new ColonyError('NOT_TARGET_SESSION', `broadcast #${message.id} was sent by this session`, {
          details: { message_observation_id: message.id },
        });
      }
      const now = ctx.clock.now();
      const status = effectiveStatus(message, now);
      if (status === 'retracted') throw retracted(message);
      if (message.claimedBySessionId !== null) {
        if (message.claimedBySessionId === args.session_id) {
          // The claimer asking again: the first claim's answer (agent and time are set with the session).
          return claimed(args.session_id, message.claimedByAgent ?? args.agent, message.claimedAt ?? now);
        }
        throw new ColonyError('ALREADY_CLAIMED', `broadcast #${message.id} was already claimed`, {
          details: {
            message_observation_id: message.id,
            claimed_by_session_id: message.claimedBySessionId,
            claimed_by_agent: message.claimedByAgent,
          },
        });
      }
      if (status === 'expired') throw expired(message);
      if (!(await claimMessage(ctx.store, message.id, args.session_id, args.agent, now))) {
        throw new Error(`message #${message.id} changed mid-write`);
      }
      await appendObservation(ctx, {
        sessionId: args.session_id,
        taskId: message.taskId,
        kind: MESSAGE_CLAIM_KIND,
        content: `claimed broadcast #${message.id} from ${message.fromAgent}`,
        replyTo: message.id,
        metadata: { message_id: message.id, claimed_by_agent: args.agent },
      });
      return {
        status: 'claimed',
        claimed_by_session_id: args.session_id,
        claimed_by_agent: args.agent,
        claimed_at: now,
      };
    });
  }

  async #entries(filter: Omit<Parameters<typeof listInboxMessages>[1], 'now'>): Promise<MessageEntry[]> {
    const now = this.#ctx.clock.now();
    const reader = { sessionId: filter.sessionId, agent: filter.agent };
    return (await listInboxMessages(this.#ctx.store, { ...filter, now })).map((m) =>
      toEntry(m, effectiveStatus(m, now), reader),
    );
  }
}

function claimed(sessionId: string, agent: string, at: number): MessageClaimed {
  return { status: 'claimed', claimed_by_session_id: sessionId, claimed_by_agent: agent, claimed_at: at };
}

function retracted(message: Message): ColonyError {
  return new ColonyError('ALREADY_RETRACTED', `message #${message.id} was retracted by its sender`, {
    details: { message_observation_id: message.id },
  });
}

function expired(message: Message): ColonyError {
  return new ColonyError('MESSAGE_EXPIRED', `message #${message.id} expired before it was read`, {
    details: { message_observation_id: message.id, expires_at: message.expiresAt },
  });
}

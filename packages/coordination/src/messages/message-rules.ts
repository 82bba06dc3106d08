/**
 * @module messages/message-rules
 * Who a message is for, and how it looks in an inbox. Small named rules shared by
 * every message operation; each is testable alone.
 */
import { getMessage, getObservation, type InboxMessage, lockWriteScope, type Message } from '@swarm/storage';
import {
  ColonyError,
  MESSAGE_TARGETS,
  type MessageEntry,
  type MessageReplyArgs,
  type MessageTarget,
} from '@swarm/tools';
import type { DomainContext } from '../context';
import { compactLine } from '../tasks/post-routing';

/** Characters of a body an inbox entry previews. */
export const MESSAGE_PREVIEW_CHARS = 120;

/** Sent to to_agent 'any' with no session named: claimable by any recipient. */
export function isBroadcast(message: Pick<Message, 'toAgent' | 'toSessionId'>): boolean {
  return message.toAgent === 'any' && message.toSessionId === null;
}

/**
 * Why `sessionId` (joined as `agent`) is not a recipient of `message`, or null when it
 * is. Recipients: the named session; else sessions of to_agent ('any': all); never
 * the sender; once a broadcast is claimed, only its claimer.
 */
export function recipientRefusal(message: Message, sessionId: string, agent: string): ColonyError | null {
  const details = { message_observation_id: message.id, session_id: sessionId };
  if (message.fromSessionId === sessionId) {
    return new ColonyError('NOT_TARGET_SESSION', `message #${message.id} was sent by this session`, { details });
  }
  if (message.toSessionId !== null && message.toSessionId !== sessionId) {
    return new ColonyError('NOT_TARGET_SESSION', `message #${message.id} is addressed to another session`, {
      details: { ...details, to_session_id: message.toSessionId },
    });
  }
  if (message.toSessionId === null && message.toAgent !== 'any' && message.toAgent !== agent) {
    return new ColonyError('NOT_TARGET_AGENT', `message #${message.id} is for ${message.toAgent}, not ${agent}`, {
      details: { ...details, to_agent: message.toAgent, agent },
    });
  }
  if (message.claimedBySessionId !== null && message.claimedBySessionId !== sessionId) {
    return new ColonyError('NOT_TARGET_SESSION', `broadcast #${message.id} was claimed by another session`, {
      details: { ...details, claimed_by_session_id: message.claimedBySessionId },
    });
  }
  return null;
}

/**
 * `resolveMessage` inside a write that changes the message (read, check, guarded
 * update): its write scope is locked first, so racing writers on one message take
 * turns and each checks what the one before committed (SQLite's write lock does this
 * already; PostgreSQL's writers run side by side).
 */
export async function lockedMessage(ctx: DomainContext, id: number, taskId?: number): Promise<Message> {
  await lockWriteScope(ctx.store, `message:${id}`);
  return resolveMessage(ctx, id, taskId);
}

/**
 * The message with this observation id. With `taskId`, the id must be on that task:
 * a message elsewhere is TASK_MISMATCH, another task's non-message
 * OBSERVATION_NOT_ON_TASK. Anything else that is not a message is NOT_MESSAGE.
 */
export async function resolveMessage(ctx: DomainContext, id: number, taskId?: number): Promise<Message> {
  const message = await getMessage(ctx.store, id);
  if (message && taskId !== undefined && message.taskId !== taskId) {
    throw new ColonyError('TASK_MISMATCH', `message #${id} belongs to task ${message.taskId}, not ${taskId}`, {
      details: { message_observation_id: id, task_id: taskId, message_task_id: message.taskId },
    });
  }
  if (message) return message;
  const observation = await getObservation(ctx.store, id);
  if (observation && taskId !== undefined && observation.taskId !== taskId) {
    throw new ColonyError('OBSERVATION_NOT_ON_TASK', `observation #${id} is not on task ${taskId}`, {
      details: { message_observation_id: id, task_id: taskId, observation_task_id: observation.taskId },
    });
  }
  throw new ColonyError(
    'NOT_MESSAGE',
    observation ? `observation #${id} is a ${observation.kind}, not a message` : `no message #${id}`,
    { details: { message_observation_id: id } },
  );
}

/** The to_agent that answers a sender: its agent when addressable, else 'any'. */
export function replyTarget(fromAgent: string): MessageTarget {
  return (MESSAGE_TARGETS as readonly string[]).includes(fromAgent) ? (fromAgent as MessageTarget) : 'any';
}

export interface Reader {
  readonly sessionId: string;
  readonly agent: string;
}

/** The compact inbox entry of a message for `reader`, with its status as of `now`. */
export function toEntry(message: InboxMessage, status: string, reader: Reader): MessageEntry {
  const reply: MessageReplyArgs = {
    task_id: message.taskId,
    session_id: reader.sessionId,
    agent: reader.agent,
    to_agent: replyTarget(message.fromAgent),
    to_session_id: message.fromSessionId,
    reply_to: message.id,
    urgency: 'fyi',
    content: '...',
  };
  return {
    id: message.id,
    task_id: message.taskId,
    ts: message.createdAt,
    from_session_id: message.fromSessionId,
    from_agent: message.fromAgent,
    to_agent: message.toAgent,
    to_session_id: message.toSessionId,
    urgency: message.urgency,
    status,
    reply_to: message.replyTo,
    preview: compactLine(message.head, MESSAGE_PREVIEW_CHARS),
    expires_at: message.expiresAt,
    is_claimable_broadcast:
      isBroadcast(message) && message.claimedBySessionId === null && status !== 'expired' && status !== 'retracted',
    claimed_by_session_id: message.claimedBySessionId,
    claimed_by_agent: message.claimedByAgent,
    reply_tool: 'task_message',
    suggested_reply_args: reply,
    mark_read_tool: 'task_message_mark_read',
  };
}

/**
 * @module attention/inbox-entries
 * The compact entries of the personal buckets: messages with every action hint the
 * contract names, handoffs and relays (wakes) with their accept and decline calls, and
 * open blocker posts with the answer call. Previews are one line of at most 80 chars.
 */
import type { OpenBlockerPost } from '@swarm/storage';
import type { AttentionBlocker, AttentionHandoff, AttentionMessage, AttentionWake, MessageEntry } from '@swarm/tools';
import type { PendingBaton } from '../batons/baton-service';
import { compactLine } from '../tasks/post-routing';

export const PREVIEW_CHARS = 80;
export const HANDOFF_NEXT = 'Accept or decline the handoff.';
export const WAKE_NEXT = 'Resume the stopped work: accept the relay, or decline it so it can be rerouted.';
export const BLOCKING_NEXT =
  'Blocking: read it (get_observations), reply with task_message using reply_to, then mark it read.';
export const NEEDS_REPLY_NEXT =
  'Reply with task_message using reply_to, or mark read after reading if no reply is needed.';

const URGENCY_RANK: Record<string, number> = { blocking: 0, needs_reply: 1 };

/** Blocking first, then needs_reply, then fyi; the given (newest-first) order within each. */
export function byUrgency(entries: readonly MessageEntry[]): MessageEntry[] {
  return [...entries].sort((a, b) => (URGENCY_RANK[a.urgency] ?? 2) - (URGENCY_RANK[b.urgency] ?? 2));
}

/** An inbox message with its reply and mark-read calls, each under every name the contract uses. */
export function messageEntry(entry: MessageEntry, sessionId: string): AttentionMessage {
  const reply = entry.suggested_reply_args;
  const markRead = { message_observation_id: entry.id, session_id: sessionId };
  const next =
    entry.urgency === 'blocking' ? BLOCKING_NEXT : entry.urgency === 'needs_reply' ? NEEDS_REPLY_NEXT : undefined;
  return {
    id: entry.id,
    task_id: entry.task_id,
    ts: entry.ts,
    from_agent: entry.from_agent,
    urgency: entry.urgency,
    preview: compactLine(entry.preview, PREVIEW_CHARS),
    expires_at: entry.expires_at,
    reply_tool: 'task_message',
    suggested_reply_args: reply,
    reply_args: reply,
    reply_with_tool: 'task_message',
    reply_with_args: reply,
    mark_read_tool: 'task_message_mark_read',
    mark_read_args: markRead,
    mark_read_with_tool: 'task_message_mark_read',
    mark_read_with_args: markRead,
    ...(next === undefined ? {} : { next_action: next }),
  };
}

export function handoffEntry(baton: PendingBaton): AttentionHandoff {
  return {
    id: baton.id,
    task_id: baton.task_id,
    from_agent: baton.from_agent,
    summary: compactLine(baton.summary, PREVIEW_CHARS),
    expires_at: baton.expires_at,
    next: HANDOFF_NEXT,
    accept_with: baton.accept_with,
    decline_with: baton.decline_with,
  };
}

/** A relay as a wake; `reason` is the relay's (quota, rate-limit, turn-cap, stranded, ...). */
export function wakeEntry(baton: PendingBaton, reason: string): AttentionWake {
  return { ...handoffEntry(baton), reason, next: WAKE_NEXT };
}

export function blockerEntry(post: OpenBlockerPost, sessionId: string): AttentionBlocker {
  return {
    id: post.id,
    task_id: post.taskId,
    from_session_id: post.sessionId,
    from_agent: post.agent,
    ts: post.ts,
    preview: compactLine(post.head, PREVIEW_CHARS),
    answer_with: {
      tool: 'task_post',
      args: { task_id: post.taskId, session_id: sessionId, kind: 'answer', reply_to: post.id, content: '...' },
    },
  };
}

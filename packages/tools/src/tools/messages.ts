/**
 * @module tools/messages
 * Directed and broadcast agent-to-agent messages on task threads: send (or reply),
 * list your inbox compactly, mark read, retract, and claim a broadcast. Bodies are
 * observations (searchable, audited); reading them is get_observations' job.
 */
import { z } from 'zod';
import { defineTool } from '../define-tool';
import { agentName, content, limit, observationId, sessionId, taskId, timestampMs } from '../schemas';

export const MESSAGE_TARGETS = ['claude', 'codex', 'any'] as const;
export const MESSAGE_URGENCIES = ['fyi', 'needs_reply', 'blocking'] as const;
/** Longest TTL a message may ask for: 30 days. */
export const MAX_MESSAGE_TTL_MINUTES = 43_200;

const messageRef = { message_observation_id: observationId, session_id: sessionId };

export const TaskMessageInput = z.strictObject({
  task_id: taskId,
  session_id: sessionId,
  agent: agentName,
  content,
  to_agent: z.enum(MESSAGE_TARGETS).default('any'),
  to_session_id: sessionId.optional(),
  urgency: z.enum(MESSAGE_URGENCIES).default('fyi'),
  reply_to: observationId.optional(),
  expires_in_minutes: z.int().min(1).max(MAX_MESSAGE_TTL_MINUTES).optional(),
});
export type TaskMessageInput = z.output<typeof TaskMessageInput>;

export type MessageTarget = 'claude' | 'codex' | 'any';

export type MessageUrgency = 'fyi' | 'needs_reply' | 'blocking';

export type MessageStatus = 'unread' | 'read' | 'replied' | 'expired' | 'retracted';

export interface MessageSent {
  message_observation_id: number;
  status: 'unread';
}

/** The arguments of a reply, ready to fill in `content` and send with task_message. */
export interface MessageReplyArgs {
  task_id: number;
  session_id: string;
  agent: string;
  to_agent: MessageTarget;
  to_session_id: string;
  reply_to: number;
  urgency: MessageUrgency;
  content: string;
}

/** One compact inbox entry: addressing, lifecycle and action hints, never the body. */
export interface MessageEntry {
  id: number;
  task_id: number;
  ts: number;
  from_session_id: string;
  from_agent: string;
  to_agent: string;
  to_session_id: string | null;
  urgency: string;
  status: string;
  reply_to: number | null;
  preview: string;
  expires_at: number | null;
  is_claimable_broadcast: boolean;
  claimed_by_session_id: string | null;
  claimed_by_agent: string | null;
  reply_tool: 'task_message';
  suggested_reply_args: MessageReplyArgs;
  mark_read_tool: 'task_message_mark_read';
}

/** The fields of an inbox entry that are often null; task_messages leaves them out then. */
const NULLABLE_ENTRY_FIELDS = [
  'to_session_id',
  'reply_to',
  'expires_at',
  'claimed_by_session_id',
  'claimed_by_agent',
] as const;
type NullableEntryField = (typeof NULLABLE_ENTRY_FIELDS)[number];

/** A task_messages entry as answered: a null field is left out (issue 17's token goal). */
export type MessageListEntry = Omit<MessageEntry, NullableEntryField> & {
  [K in NullableEntryField]?: NonNullable<MessageEntry[K]>;
};

/** `entry` without its null fields. */
export function listedMessage(entry: MessageEntry): MessageListEntry {
  const listed: Record<string, unknown> = { ...entry };
  for (const field of NULLABLE_ENTRY_FIELDS) if (listed[field] === null) delete listed[field];
  return listed as MessageListEntry;
}

export interface MessageStatusResult {
  status: MessageStatus;
}

export interface MessageClaimed {
  status: 'claimed';
  claimed_by_session_id: string;
  claimed_by_agent: string;
  claimed_at: number;
}

export interface MessageBackend {
  send(args: TaskMessageInput): Promise<MessageSent>;
  list(args: TaskMessagesInput): Promise<MessageEntry[]>;
  markRead(args: TaskMessageMarkReadInput): Promise<MessageStatusResult>;
  retract(args: TaskMessageRetractInput): Promise<MessageStatusResult>;
  claim(args: TaskMessageClaimInput): Promise<MessageClaimed>;
}

/** The part of ColonyBackend these tools call (backend.ts composes the whole). */
type Host = { readonly messages: MessageBackend };

export const taskMessage = defineTool({
  name: 'task_message',
  title: 'Send message',
  description: 'Send a directed or broadcast message on a task.',
  input: TaskMessageInput,
  core: true,
  mutates: true,
  hints: { destructive: false, idempotent: false },
  docs: {
    returns: "{ message_observation_id, status: 'unread' }",
    errors: [
      'TASK_NOT_FOUND',
      'SESSION_NOT_FOUND',
      'NOT_PARTICIPANT',
      'NOT_MESSAGE',
      'TASK_MISMATCH',
      'OBSERVATION_NOT_ON_TASK',
      'ALREADY_RETRACTED',
    ],
    notes:
      'For directed coordination that does not move file claims (use task_hand_off for work + files; ' +
      "task_post for shared thread notes). The minimum call broadcasts (to_agent 'any') with urgency " +
      "'fyi'. to_session_id names one recipient (it must be a known session, not your own); otherwise " +
      "to_agent addresses every session of that agent on the task, and 'any' everyone but you. Urgency " +
      'sets prominence: fyi is coalesced, needs_reply asks for an answer, blocking stays on top until ' +
      'read, replied, retracted or expired. expires_in_minutes (1 to 43200) is a TTL: past it an ' +
      'unread message drops out of inboxes and mark_read answers MESSAGE_EXPIRED; the body stays ' +
      'searchable. reply_to must be a message on the same task (an unknown id or a non-message is ' +
      "NOT_MESSAGE; a message on another task TASK_MISMATCH; another task's non-message " +
      'OBSERVATION_NOT_ON_TASK; a retracted parent ALREADY_RETRACTED). A reply from a recipient of the ' +
      "parent flips only that immediate parent to 'replied' (never its ancestors), and replying to a " +
      "still-unclaimed broadcast claims it for you. A reply from anyone else (the parent's sender " +
      'following up, say) chains without changing the parent; nor does an expired parent change.',
    example: {
      task_id: 17,
      session_id: 'sess_abc',
      agent: 'claude',
      to_agent: 'codex',
      to_session_id: 'sess_xyz',
      content: 'can you re-run the typecheck on your branch?',
      urgency: 'needs_reply',
      expires_in_minutes: 60,
    },
  },
  handler: (args, b: Host) => b.messages.send(args),
});

export const TaskMessagesInput = z.strictObject({
  session_id: sessionId,
  agent: agentName,
  since_ts: timestampMs.optional(),
  task_ids: z.array(taskId).min(1).max(100).optional(),
  unread_only: z.boolean().default(true),
  limit: limit(50, 200),
});
export type TaskMessagesInput = z.output<typeof TaskMessagesInput>;

export const taskMessages = defineTool({
  name: 'task_messages',
  title: 'Read messages',
  description: 'Your messages, newest first (not marked read).',
  input: TaskMessagesInput,
  core: true,
  mutates: false,
  docs: {
    returns:
      '[ { id, task_id, ts, from_session_id, from_agent, to_agent, to_session_id, urgency, status, ' +
      'reply_to, preview, expires_at, is_claimable_broadcast, claimed_by_session_id, claimed_by_agent, ' +
      "reply_tool: 'task_message', suggested_reply_args, mark_read_tool: 'task_message_mark_read' } ] " +
      'newest first; to_session_id, reply_to, expires_at, claimed_by_session_id and claimed_by_agent ' +
      'are left out when null. Hydrate bodies with get_observations.',
    errors: ['SESSION_NOT_FOUND'],
    notes:
      "Addressed to you: to_session_id is yours, or to_agent is your agent (or 'any') with no " +
      'to_session_id, on threads you take part in (narrow with task_ids; since_ts keeps messages sent ' +
      'after it). Your own messages, retracted ones and broadcasts claimed by another session never ' +
      'show. unread_only (default true) is the default inbox: unread and within TTL. With unread_only: ' +
      "false, status is the effective state (an unread message past its TTL shows as 'expired' even " +
      'before anything rewrote it). Listing never marks read: call task_message_mark_read after ' +
      'reading, or reply with task_message using suggested_reply_args. Contract change (issue 17, ' +
      'token goals): the seed lists the nullable fields always; they are omitted when null.',
    example: { session_id: 'sess_abc', agent: 'claude', since_ts: 1714000000000, unread_only: true, limit: 50 },
  },
  handler: async (args, b: Host) => (await b.messages.list(args)).map(listedMessage),
});

export const TaskMessageMarkReadInput = z.strictObject({ ...messageRef, task_id: taskId.optional() });
export type TaskMessageMarkReadInput = z.output<typeof TaskMessageMarkReadInput>;

export const taskMessageMarkRead = defineTool({
  name: 'task_message_mark_read',
  title: 'Mark message read',
  description: 'Mark a message read.',
  input: TaskMessageMarkReadInput,
  core: true,
  mutates: true,
  hints: { destructive: false, idempotent: true },
  docs: {
    returns: "{ status }: 'read', or 'replied' when it was already answered.",
    errors: [
      'NOT_MESSAGE',
      'TASK_MISMATCH',
      'OBSERVATION_NOT_ON_TASK',
      'NOT_PARTICIPANT',
      'NOT_TARGET_SESSION',
      'NOT_TARGET_AGENT',
      'MESSAGE_EXPIRED',
      'ALREADY_RETRACTED',
    ],
    notes:
      'The first read writes a sibling `message_read` observation (reply_to the message) so the sender ' +
      'sees a receipt; re-marking a read or replied message writes nothing. Only a recipient may mark: ' +
      'a session other than to_session_id, the sender, or anyone but the claimer of a claimed ' +
      'broadcast gets NOT_TARGET_SESSION; a session whose agent is not to_agent NOT_TARGET_AGENT. Past ' +
      "its TTL an unread message answers MESSAGE_EXPIRED, and its status becomes 'expired' for good. " +
      "Optional task_id scopes the call: a message on another task is TASK_MISMATCH, another task's " +
      "non-message OBSERVATION_NOT_ON_TASK. A broadcast has one status: the first recipient's read " +
      'marks it read for all.',
    example: { message_observation_id: 512, session_id: 'sess_xyz' },
  },
  handler: (args, b: Host) => b.messages.markRead(args),
});

export const TaskMessageRetractInput = z.strictObject({
  ...messageRef,
  reason: z.string().min(1).max(500).optional(),
  task_id: taskId.optional(),
});
export type TaskMessageRetractInput = z.output<typeof TaskMessageRetractInput>;

export const taskMessageRetract = defineTool({
  name: 'task_message_retract',
  title: 'Retract message',
  description: 'Retract your unanswered message.',
  input: TaskMessageRetractInput,
  mutates: true,
  hints: { destructive: false, idempotent: true },
  docs: {
    returns: "{ status: 'retracted' }",
    errors: [
      'NOT_MESSAGE',
      'TASK_MISMATCH',
      'OBSERVATION_NOT_ON_TASK',
      'SESSION_NOT_FOUND',
      'NOT_SENDER',
      'ALREADY_REPLIED',
      'ALREADY_RETRACTED',
    ],
    notes:
      'Only the original sender may retract, and only before a reply: once answered, rewriting the ' +
      'intent would deceive the replier. The message leaves every inbox; its body stays in storage, ' +
      'search and the timeline, and a `message_retract` observation (reply_to the message, ' +
      'metadata.reason) records the retraction. Optional task_id scopes the call as in ' +
      'task_message_mark_read.',
    example: { message_observation_id: 512, session_id: 'sess_abc', reason: 'duplicate of #498' },
  },
  handler: (args, b: Host) => b.messages.retract(args),
});

export const TaskMessageClaimInput = z.strictObject({ ...messageRef, agent: agentName });
export type TaskMessageClaimInput = z.output<typeof TaskMessageClaimInput>;

export const taskMessageClaim = defineTool({
  name: 'task_message_claim',
  title: 'Claim broadcast',
  description: "Claim an 'any' broadcast for yourself.",
  input: TaskMessageClaimInput,
  mutates: true,
  hints: { destructive: false, idempotent: false },
  docs: {
    returns: "{ status: 'claimed', claimed_by_session_id, claimed_by_agent, claimed_at }",
    errors: [
      'NOT_MESSAGE',
      'NOT_BROADCAST',
      'SESSION_NOT_FOUND',
      'NOT_PARTICIPANT',
      'NOT_TARGET_SESSION',
      'ALREADY_CLAIMED',
      'MESSAGE_EXPIRED',
      'ALREADY_RETRACTED',
    ],
    notes:
      'Replying with task_message already claims an unclaimed broadcast; claim first only for "I\'ll ' +
      'handle it, not ready to reply". Directed messages (to_session_id set or a named to_agent) are ' +
      'NOT_BROADCAST; the sender claiming its own broadcast is NOT_TARGET_SESSION. Of racing claimers ' +
      'exactly one wins; the others get ALREADY_CLAIMED (with claimed_by_session_id), while the ' +
      'claimer calling again gets the same answer. A `message_claim` observation records the claim.',
    example: { message_observation_id: 730, session_id: 'sess_xyz', agent: 'codex' },
  },
  handler: (args, b: Host) => b.messages.claim(args),
});

export const messageTools = [taskMessage, taskMessages, taskMessageMarkRead, taskMessageClaim, taskMessageRetract];

/**
 * @module mesh/agent-messages
 * send_message_to_agent / broadcast_message_to_agents / get_messages_from_agents.
 * A message is an `agent-message` observation (session `mesh:<from_agent>`, the body
 * as its content) plus a `mesh_messages` row and one recipient row per addressee, all
 * in one transaction. Threads: a thread belongs to the agents that sent or received
 * its messages, and only they may add to it. A message that requires confirmation
 * sends its sender a confirmation message when a recipient first marks it read.
 */
import {
  countMeshUnread,
  type InboxMeshMessage,
  insertMeshMessage,
  listMeshInbox,
  markMeshMessageRead,
  meshThreadMembership,
  upsertSession,
} from '@swarm/storage';
import {
  type BroadcastMessageToAgentsInput,
  type BroadcastResult,
  ColonyError,
  type GetMessagesFromAgentsInput,
  type GetMessagesResult,
  type MeshMessageType,
  type MeshMessageView,
  type MeshPriority,
  type SendMessageResult,
  type SendMessageToAgentInput,
} from '@swarm/tools';
import { appendObservation, type DomainContext } from '../context';
import { requireAgentName, requireAgentNames } from './agent-names';

export const AGENT_MESSAGE_KIND = 'agent-message';
export const DEFAULT_INBOX_LIMIT = 50;
/** Thread ids create_thread makes; nobody else may start one of this form. */
const GENERATED_THREAD = /^thread-\d+$/;

interface Outgoing {
  readonly tool: string;
  readonly from: string;
  readonly recipients: readonly string[];
  readonly body: string;
  readonly messageType: MeshMessageType;
  readonly priority: MeshPriority;
  /** An existing or caller-chosen thread, `new` for a fresh one, or null. */
  readonly thread: string | 'new' | null;
  readonly requiresConfirmation: boolean;
  readonly confirmsId?: number;
}

export function sendMessage(ctx: DomainContext, args: SendMessageToAgentInput): Promise<SendMessageResult> {
  const from = requireAgentName(args.from_agent, 'from_agent');
  const to = requireAgentName(args.to_agent, 'to_agent');
  return ctx.store.write(async () => {
    if (args.thread_id !== undefined) await requireThreadAccess(ctx, args.thread_id, from);
    const sent = await deliver(ctx, {
      tool: 'send_message_to_agent',
      from,
      recipients: [to],
      body: args.message,
      messageType: args.message_type ?? 'info',
      priority: args.priority ?? 'normal',
      thread: args.thread_id ?? null,
      requiresConfirmation: args.requires_confirmation ?? false,
    });
    return { success: true, message_id: sent.id, to_agent: to, thread_id: sent.threadId, created_at: sent.createdAt };
  });
}

export function broadcastMessage(ctx: DomainContext, args: BroadcastMessageToAgentsInput): Promise<BroadcastResult> {
  const from = requireAgentName(args.from_agent, 'from_agent');
  const recipients = requireAgentNames(args.to_agents, 'to_agents');
  if (args.create_thread && args.thread_id !== undefined) {
    throw new ColonyError('INVALID_PARAMETERS', 'invalid arguments: give create_thread or thread_id, not both', {
      details: { fields: ['create_thread', 'thread_id'] },
    });
  }
  return ctx.store.write(async () => {
    if (args.thread_id !== undefined) await requireThreadAccess(ctx, args.thread_id, from);
    const sent = await deliver(ctx, {
      tool: 'broadcast_message_to_agents',
      from,
      recipients,
      body: args.message,
      messageType: args.message_type ?? 'info',
      priority: args.priority ?? 'normal',
      thread: args.create_thread ? 'new' : (args.thread_id ?? null),
      requiresConfirmation: false,
    });
    return {
      success: true,
      message_id: sent.id,
      recipients,
      count: recipients.length,
      thread_id: sent.threadId,
      created_at: sent.createdAt,
    };
  });
}

export function inbox(ctx: DomainContext, args: GetMessagesFromAgentsInput): Promise<GetMessagesResult> {
  const agent = requireAgentName(args.agent_name, 'agent_name');
  const filter = {
    agent,
    unreadOnly: args.unread_only ?? false,
    ...(args.priority ? { priority: args.priority } : {}),
    ...(args.message_type ? { messageType: args.message_type } : {}),
    ...(args.thread_id !== undefined ? { threadId: args.thread_id } : {}),
    ...(args.from_agent !== undefined ? { fromAgent: requireAgentName(args.from_agent, 'from_agent') } : {}),
    limit: args.limit ?? DEFAULT_INBOX_LIMIT,
  };
  const answer = async (rows: InboxMeshMessage[], marked: number): Promise<GetMessagesResult> => ({
    success: true,
    messages: rows.map(messageView),
    count: rows.length,
    marked_read: marked,
    unread_remaining: await countMeshUnread(ctx.store, agent),
  });
  if (!args.mark_as_read) return ctx.store.read(async () => answer(await listMeshInbox(ctx.store, filter), 0));
  return ctx.store.write(async () => {
    const rows = await listMeshInbox(ctx.store, filter);
    const now = ctx.clock.now();
    let marked = 0;
    for (const row of rows) {
      // Guarded: of two readers racing, one marks the message (and sends the confirmation).
      if (row.readAt !== null || !(await markMeshMessageRead(ctx.store, row.id, agent, now))) continue;
      marked++;
      if (row.requiresConfirmation) await confirm(ctx, agent, row);
    }
    return answer(rows, marked);
  });
}

async function confirm(ctx: DomainContext, reader: string, message: InboxMeshMessage): Promise<void> {
  await deliver(ctx, {
    tool: 'get_messages_from_agents',
    from: reader,
    recipients: [message.fromAgent],
    body: `Read confirmation: ${reader} read message ${message.id}.`,
    messageType: 'info',
    priority: 'normal',
    thread: message.threadId,
    requiresConfirmation: false,
    confirmsId: message.id,
  });
}

/** Appends the observation and the message rows; call inside `store.write`. */
async function deliver(
  ctx: DomainContext,
  out: Outgoing,
): Promise<{ id: number; threadId: string | null; createdAt: number }> {
  const now = ctx.clock.now();
  const sessionId = `mesh:${out.from}`;
  await upsertSession(ctx.store, { id: sessionId, ide: 'mesh', agent: out.from }, now);
  const id = await appendObservation(ctx, {
    sessionId,
    kind: AGENT_MESSAGE_KIND,
    content: out.body,
    metadata: {
      tool: out.tool,
      from_agent: out.from,
      to_agents: [...out.recipients],
      message_type: out.messageType,
      priority: out.priority,
      ...(out.confirmsId !== undefined ? { confirms_message_id: out.confirmsId } : {}),
    },
  });
  const threadId = out.thread === 'new' ? `thread-${id}` : out.thread;
  await insertMeshMessage(
    ctx.store,
    {
      id,
      fromAgent: out.from,
      messageType: out.messageType,
      priority: out.priority,
      threadId,
      requiresConfirmation: out.requiresConfirmation,
      confirmsId: out.confirmsId ?? null,
      createdAt: now,
    },
    out.recipients,
  );
  return { id, threadId, createdAt: now };
}

/** Only a thread's members add to it; `thread-<n>` ids are made by create_thread only. */
async function requireThreadAccess(ctx: DomainContext, threadId: string, agent: string): Promise<void> {
  const membership = await meshThreadMembership(ctx.store, threadId, agent);
  if (membership.exists && !membership.member) {
    throw new ColonyError('ACCESS_DENIED', `agent "${agent}" is not part of thread "${threadId}"`, {
      details: { thread_id: threadId },
    });
  }
  if (!membership.exists && GENERATED_THREAD.test(threadId)) {
    throw new ColonyError(
      'INVALID_PARAMETERS',
      `invalid arguments: thread "${threadId}" does not exist, and ids of the form thread-<n> are made by create_thread`,
      { details: { fields: ['thread_id'] } },
    );
  }
}

function messageView(row: InboxMeshMessage): MeshMessageView {
  return {
    message_id: row.id,
    from_agent: row.fromAgent,
    message: row.body,
    message_type: row.messageType as MeshMessageType,
    priority: row.priority as MeshPriority,
    thread_id: row.threadId,
    requires_confirmation: row.requiresConfirmation,
    read: row.readAt !== null,
    created_at: row.createdAt,
    ...(row.confirmsId !== null ? { confirms_message_id: row.confirmsId } : {}),
  };
}

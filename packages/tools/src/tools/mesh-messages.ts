/**
 * @module tools/mesh-messages
 * Seed 001 agent messages: direct messages, broadcasts to many agents (one read flag
 * per recipient), threads, an inbox with filters, and read confirmations. Distinct
 * from the task-thread messages of the MCP contract (`task_message`): their own
 * tables, their own service.
 *
 * As in tools/mesh-context: the seed's schemas word for word, defaults applied by the
 * service, an unlisted `idempotency_key` on the mutating tools (a retried send stores one
 * message), refusals in the seed's error shape.
 */
import { z } from 'zod';
import { defineTool } from '../define-tool';
import { MAX_CONTENT_CHARS, wellFormed } from '../schemas';
import { meshAgent, SEED_001_TOOL } from './_mesh';

export const MESH_MESSAGE_TYPES = ['info', 'task', 'result', 'error', 'question'] as const;
export type MeshMessageType = (typeof MESH_MESSAGE_TYPES)[number];
export const MESH_PRIORITIES = ['low', 'normal', 'high', 'urgent'] as const;
export type MeshPriority = (typeof MESH_PRIORITIES)[number];
/** Most recipients one broadcast may name. */
export const MAX_RECIPIENTS = 100;
/** Most messages one inbox read returns. */
export const MAX_INBOX_LIMIT = 200;

const body = z.string().min(1).max(MAX_CONTENT_CHARS);
const messageType = z.enum(MESH_MESSAGE_TYPES);
const priority = z.enum(MESH_PRIORITIES);
const threadId = wellFormed().min(1).max(200);

export const SendMessageToAgentInput = z.strictObject({
  from_agent: meshAgent('Name of the agent sending the message'),
  to_agent: meshAgent('Name of the agent receiving the message'),
  message: body.describe('The message content to send'),
  message_type: messageType.optional().describe('Type of message being sent'),
  priority: priority.optional().describe('Priority level of the message'),
  thread_id: threadId.optional().describe('Optional thread ID to group related messages'),
  requires_confirmation: z.boolean().optional().describe('Whether the message requires read confirmation'),
});
export type SendMessageToAgentInput = z.output<typeof SendMessageToAgentInput>;

const THREAD_NOTE =
  'A thread belongs to the agents that sent or received its messages: sending into an existing ' +
  'thread you are not part of answers ACCESS_DENIED.';

export interface MeshMessageView {
  message_id: number;
  from_agent: string;
  message: string;
  message_type: MeshMessageType;
  priority: MeshPriority;
  thread_id: string | null;
  requires_confirmation: boolean;
  /** Whether this recipient had read it before this call. */
  read: boolean;
  created_at: number;
  /** Set on a read confirmation: the message it confirms. */
  confirms_message_id?: number;
}

export interface SendMessageResult {
  success: true;
  message_id: number;
  to_agent: string;
  thread_id: string | null;
  created_at: number;
}

export interface GetMessagesResult {
  success: true;
  messages: MeshMessageView[];
  count: number;
  marked_read: number;
  unread_remaining: number;
}

export interface BroadcastResult {
  success: true;
  message_id: number;
  recipients: string[];
  count: number;
  thread_id: string | null;
  created_at: number;
}

export interface MeshMessagesBackend {
  send(args: SendMessageToAgentInput): Promise<SendMessageResult>;
  inbox(args: GetMessagesFromAgentsInput): Promise<GetMessagesResult>;
  broadcast(args: BroadcastMessageToAgentsInput): Promise<BroadcastResult>;
}

/** The part of ColonyBackend these tools call (backend.ts composes the whole). */
type Host = { readonly mesh: { readonly messages: MeshMessagesBackend } };

export const sendMessageToAgent = defineTool({
  name: 'send_message_to_agent',
  title: 'Message agent',
  description: 'Send a direct message to another agent in the system',
  input: SendMessageToAgentInput,
  ...SEED_001_TOOL,
  mutates: true,
  hints: { destructive: false, idempotent: false },
  callerArg: 'from_agent',
  docs: {
    returns: '{ success: true, message_id, to_agent, thread_id, created_at }; thread_id null when none was given.',
    errors: ['INVALID_AGENT', 'ACCESS_DENIED', 'TIMEOUT'],
    notes:
      `message_type defaults to info, priority to normal. With requires_confirmation, the recipient's ` +
      `first read (mark_as_read) sends you a confirmation message (confirms_message_id). ` +
      `${THREAD_NOTE} The message is also recorded as an \`agent-message\` observation (session ` +
      `\`mesh:<from_agent>\`); message_id is its id.`,
    example: {
      from_agent: 'TaskManager',
      to_agent: 'DataProcessor',
      message: 'Please process the new user data file',
      message_type: 'task',
      priority: 'high',
      requires_confirmation: true,
    },
  },
  handler: (args, b: Host) => b.mesh.messages.send(args),
});

export const GetMessagesFromAgentsInput = z.strictObject({
  agent_name: meshAgent('Name of the agent retrieving messages'),
  unread_only: z.boolean().optional().describe('Only return unread messages'),
  priority: priority.optional().describe('Filter by message priority'),
  message_type: messageType.optional().describe('Filter by message type'),
  thread_id: threadId.optional().describe('Filter by thread ID'),
  from_agent: wellFormed().optional().describe('Filter by sender agent name'),
  limit: z.int().min(1).max(MAX_INBOX_LIMIT).optional().describe('Maximum number of messages to return'),
  mark_as_read: z.boolean().optional().describe('Mark retrieved messages as read'),
});
export type GetMessagesFromAgentsInput = z.output<typeof GetMessagesFromAgentsInput>;

export const getMessagesFromAgents = defineTool({
  name: 'get_messages_from_agents',
  title: 'Agent messages',
  description: 'Retrieve messages for an agent with various filtering options',
  input: GetMessagesFromAgentsInput,
  ...SEED_001_TOOL,
  // mark_as_read writes read flags (and confirmations): it runs alone, in order.
  mutates: true,
  hints: { destructive: false, idempotent: false },
  callerArg: 'agent_name',
  docs: {
    returns:
      '{ success: true, messages: [ { message_id, from_agent, message, message_type, priority, ' +
      'thread_id, requires_confirmation, read, created_at, confirms_message_id? } ], count, ' +
      'marked_read, unread_remaining }; read is the state before this call.',
    errors: ['INVALID_AGENT', 'TIMEOUT'],
    notes:
      'Oldest first, so unread_only with mark_as_read works through the inbox in order. limit defaults ' +
      'to 50 (at most 200); unread_only and mark_as_read default to false. Filters combine with AND.',
    example: {
      agent_name: 'DataProcessor',
      unread_only: true,
      priority: 'high',
      message_type: 'task',
      mark_as_read: true,
    },
  },
  handler: (args, b: Host) => b.mesh.messages.inbox(args),
});

export const BroadcastMessageToAgentsInput = z.strictObject({
  from_agent: meshAgent('Name of the agent sending the broadcast'),
  to_agents: z.array(wellFormed()).min(1).max(MAX_RECIPIENTS).describe('List of agent names to receive the message'),
  message: body.describe('The message content to broadcast'),
  message_type: messageType.optional().describe('Type of message being sent'),
  priority: priority.optional().describe('Priority level of the message'),
  create_thread: z.boolean().optional().describe('Whether to create a new thread for this broadcast'),
  thread_id: threadId.optional().describe('Optional existing thread ID to use'),
});
export type BroadcastMessageToAgentsInput = z.output<typeof BroadcastMessageToAgentsInput>;

export const broadcastMessageToAgents = defineTool({
  name: 'broadcast_message_to_agents',
  title: 'Broadcast to agents',
  description: 'Send a message to multiple agents simultaneously',
  input: BroadcastMessageToAgentsInput,
  ...SEED_001_TOOL,
  mutates: true,
  hints: { destructive: false, idempotent: false },
  callerArg: 'from_agent',
  docs: {
    returns: '{ success: true, message_id, recipients, count, thread_id, created_at }.',
    errors: ['INVALID_AGENT', 'ACCESS_DENIED', 'TIMEOUT'],
    notes:
      `One message, one read flag per recipient (duplicates named once). create_thread starts a new ` +
      `thread (thread_id \`thread-<message_id>\`); thread_id continues an existing one; giving both is ` +
      `INVALID_PARAMETERS. ${THREAD_NOTE}`,
    example: {
      from_agent: 'SystemManager',
      to_agents: ['DataProcessor', 'FileHandler', 'Logger'],
      message: 'System maintenance scheduled for 3 PM',
      message_type: 'info',
      priority: 'normal',
      create_thread: true,
    },
  },
  handler: (args, b: Host) => b.mesh.messages.broadcast(args),
});

export const meshMessageTools = [sendMessageToAgent, getMessagesFromAgents, broadcastMessageToAgents];

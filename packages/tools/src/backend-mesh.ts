/**
 * @module backend-mesh
 * What a backend provides for the seed-001 tools: the context mesh and agent
 * messages. Same rules as backend.ts: contract shapes in, contract shapes out,
 * ColonyError for refusals, synchronous. Times are epoch milliseconds.
 */
import type {
  BatchContextOperationInput,
  GetContextInput,
  ListContextKeysInput,
  PushContextInput,
} from './tools/mesh-context';
import type {
  BroadcastMessageToAgentsInput,
  GetMessagesFromAgentsInput,
  MeshMessageType,
  MeshPriority,
  SendMessageToAgentInput,
} from './tools/mesh-messages';

export interface GetContextResult {
  success: true;
  key: string;
  value: unknown;
  version: number;
  /** The agent that pushed the value. */
  owner: string;
  updated_at: number;
  expires_at: number | null;
}

export interface PushContextResult {
  success: true;
  key: string;
  version: number;
  /** Who besides the owner may read the key; null: everyone. */
  subscribers: string[] | null;
  expires_at: number | null;
}

export interface ListContextKeysResult {
  success: true;
  keys: string[];
  count: number;
  truncated?: true;
}

export type BatchOperationResult =
  | {
      index: number;
      type: 'push' | 'get' | 'delete';
      key: string;
      success: true;
      value?: unknown;
      version?: number;
      expires_at?: number | null;
      deleted?: true;
    }
  | { index: number; type: 'push' | 'get' | 'delete'; key: string; success: false; error: string; error_code: string };

export interface BatchContextResult {
  success: true;
  atomic: boolean;
  results: BatchOperationResult[];
  succeeded: number;
  failed: number;
}

export interface MeshContextBackend {
  get(args: GetContextInput): GetContextResult;
  push(args: PushContextInput): PushContextResult;
  keys(args: ListContextKeysInput): ListContextKeysResult;
  batch(args: BatchContextOperationInput): BatchContextResult;
}

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
  send(args: SendMessageToAgentInput): SendMessageResult;
  inbox(args: GetMessagesFromAgentsInput): GetMessagesResult;
  broadcast(args: BroadcastMessageToAgentsInput): BroadcastResult;
}

export interface MeshBackend {
  readonly context: MeshContextBackend;
  readonly messages: MeshMessagesBackend;
}

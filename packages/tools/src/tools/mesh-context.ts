/**
 * @module tools/mesh-context
 * Seed 001 context mesh: JSON values under keys, each readable by everyone or only by
 * its owner and an access list (`subscribers`), optionally expiring after a TTL; and a
 * batch of pushes, gets and deletes that commits all or nothing.
 *
 * The schemas are the seed's function-calling schemas, word for word: every argument
 * carries the seed's description and no default (defaults are applied by the service).
 * The mutating ones (push_context, batch_context_operation) accept an `idempotency_key`
 * without listing it in their published schema, so a retried call applies once. Agent
 * names are plain strings here; the service answers INVALID_AGENT for a name it cannot
 * accept. Refusals use the seed's error shape (`errorFormat: 'syntha'`, see tools/_mesh.ts).
 */
import { z } from 'zod';
import { defineTool } from '../define-tool';
import { contextKey, jsonValue, wellFormed } from '../schemas';
import { meshAgent, SEED_001_TOOL } from './_mesh';

/** Longest TTL accepted: ten years, in seconds. */
export const MAX_MESH_TTL_SEC = 315_360_000;
/** Most subscribers one key may list. */
export const MAX_SUBSCRIBERS = 100;
/** Most operations one batch may hold. */
export const MAX_BATCH_OPERATIONS = 100;

const subscribers = z.array(wellFormed()).max(MAX_SUBSCRIBERS);
const ttl = z.int().positive().max(MAX_MESH_TTL_SEC);

export const GetContextInput = z.strictObject({
  agent_name: meshAgent('Name of the agent requesting the context'),
  key: contextKey.describe('The context key to retrieve'),
});
export type GetContextInput = z.output<typeof GetContextInput>;

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
  get(args: GetContextInput): Promise<GetContextResult>;
  push(args: PushContextInput): Promise<PushContextResult>;
  keys(args: ListContextKeysInput): Promise<ListContextKeysResult>;
  batch(args: BatchContextOperationInput): Promise<BatchContextResult>;
}

/** The part of ColonyBackend these tools call (backend.ts composes the whole). */
type Host = { readonly mesh: { readonly context: MeshContextBackend } };

export const getContext = defineTool({
  name: 'get_context',
  title: 'Get mesh context',
  description: 'Retrieve context data from the shared knowledge mesh for a specific agent',
  input: GetContextInput,
  ...SEED_001_TOOL,
  mutates: false,
  callerArg: 'agent_name',
  docs: {
    returns:
      '{ success: true, key, value, version, owner, updated_at, expires_at } (epoch ms; expires_at ' +
      'null without a TTL).',
    errors: ['INVALID_AGENT', 'ACCESS_DENIED', 'KEY_NOT_FOUND'],
    notes:
      'A key pushed with subscribers is readable only by its owner (the agent that pushed it last) and ' +
      'those subscribers: anyone else gets ACCESS_DENIED. An expired key answers KEY_NOT_FOUND.',
    example: { agent_name: 'DataAnalyst', key: 'user_metrics' },
  },
  handler: (args, b: Host) => b.mesh.context.get(args),
});

export const PushContextInput = z.strictObject({
  agent_name: meshAgent('Name of the agent storing the context'),
  key: contextKey.describe('The context key to store'),
  value: jsonValue.describe('The context value to store (any JSON-serializable data)'),
  subscribers: subscribers.optional().describe('Optional list of agent names that can access this context'),
  ttl: ttl.optional().describe('Optional time-to-live in seconds'),
});
export type PushContextInput = z.output<typeof PushContextInput>;

export const pushContext = defineTool({
  name: 'push_context',
  title: 'Push mesh context',
  description: 'Store context data in the shared knowledge mesh with optional access control',
  input: PushContextInput,
  ...SEED_001_TOOL,
  mutates: true,
  hints: { destructive: true, idempotent: false },
  callerArg: 'agent_name',
  docs: {
    returns: '{ success: true, key, version, subscribers, expires_at }; subscribers null when everyone may read.',
    errors: ['INVALID_AGENT', 'ACCESS_DENIED', 'TIMEOUT'],
    notes:
      'Without subscribers (or with an empty list) every agent may read the key; with them only the ' +
      'owner and the listed agents, and the key is invisible to everyone else. A push replaces value, ' +
      'subscribers and TTL and makes the pusher the owner; pushing over a live key you cannot read ' +
      'answers ACCESS_DENIED. Values are at most 64 KiB of JSON; ttl is whole seconds, counted on the ' +
      'server clock.',
    example: {
      agent_name: 'DataCollector',
      key: 'daily_metrics',
      value: { users: 1500, revenue: 50000 },
      subscribers: ['DataAnalyst', 'ReportGenerator'],
      ttl: 86400,
    },
  },
  handler: (args, b: Host) => b.mesh.context.push(args),
});

export const ListContextKeysInput = z.strictObject({
  agent_name: meshAgent('Name of the agent requesting the key list'),
  pattern: z.string().max(200).optional().describe("Optional glob pattern to filter keys (e.g., 'user_*')"),
});
export type ListContextKeysInput = z.output<typeof ListContextKeysInput>;

export const listContextKeys = defineTool({
  name: 'list_context_keys',
  title: 'Mesh context keys',
  description: 'List all context keys that an agent can access',
  input: ListContextKeysInput,
  ...SEED_001_TOOL,
  mutates: false,
  callerArg: 'agent_name',
  docs: {
    returns: '{ success: true, keys: [ key ], count } sorted; truncated: true past 1,000 keys.',
    errors: ['INVALID_AGENT'],
    notes:
      'Only keys the agent may read, and none that expired. pattern is a case-sensitive glob over the ' +
      'whole key: * any run of characters, ? one character, [abc] / [!abc] a class.',
    example: { agent_name: 'DataAnalyst', pattern: 'metrics_*' },
  },
  handler: (args, b: Host) => b.mesh.context.keys(args),
});

export const BATCH_OPERATION_TYPES = ['push', 'get', 'delete'] as const;

export const BatchOperation = z.strictObject({
  type: z.enum(BATCH_OPERATION_TYPES).describe('Type of operation to perform'),
  key: contextKey.describe('Context key for the operation'),
  value: jsonValue.optional().describe('Value to push (only for push operations)'),
  subscribers: subscribers.optional().describe('Subscribers for push operations'),
  ttl: ttl.optional().describe('TTL for push operations'),
});
export type BatchOperation = z.output<typeof BatchOperation>;

export const BatchContextOperationInput = z.strictObject({
  agent_name: meshAgent('Name of the agent performing the batch operation'),
  operations: z.array(BatchOperation).min(1).max(MAX_BATCH_OPERATIONS).describe('List of operations to execute'),
  atomic: z.boolean().optional().describe('Whether all operations must succeed or all fail'),
});
export type BatchContextOperationInput = z.output<typeof BatchContextOperationInput>;

export const batchContextOperation = defineTool({
  name: 'batch_context_operation',
  title: 'Batch context operations',
  description: 'Execute multiple context operations in a single atomic transaction',
  input: BatchContextOperationInput,
  ...SEED_001_TOOL,
  mutates: true,
  hints: { destructive: true, idempotent: false },
  callerArg: 'agent_name',
  docs: {
    returns:
      '{ success: true, atomic, results: [ { index, type, key, success, ... } ], succeeded, failed }: ' +
      'a get adds value and version, a push version and expires_at, a delete deleted: true; a failed ' +
      'operation (atomic false only) error and error_code.',
    errors: ['INVALID_AGENT', 'ACCESS_DENIED', 'KEY_NOT_FOUND', 'TIMEOUT'],
    notes:
      'Operations run in order in one write transaction, as the agent: a get sees an earlier push of ' +
      'the same batch. atomic defaults to true: the first failing operation rolls every operation back ' +
      'and the call answers its error_code with failed_index. With atomic false each operation commits ' +
      'or fails on its own. value goes only with push (and push needs it); subscribers and ttl only ' +
      'with push. A delete needs the same access as a push.',
    example: {
      agent_name: 'DataManager',
      operations: [
        { type: 'push', key: 'user_count', value: 1500 },
        { type: 'push', key: 'active_sessions', value: 245 },
        { type: 'get', key: 'previous_metrics' },
        { type: 'delete', key: 'temp_data' },
      ],
      atomic: true,
    },
  },
  handler: (args, b: Host) => b.mesh.context.batch(args),
});

export const meshContextTools = [getContext, pushContext, listContextKeys];

/**
 * @module mesh/context-mesh
 * get_context / push_context / list_context_keys / batch_context_operation over
 * `mesh_context`. Access: a key without subscribers is everyone's; a key with them is
 * readable, writable and visible only to its owner (whoever pushed it last) and those
 * subscribers. Anyone else gets ACCESS_DENIED from a get, push or delete, and never
 * sees the key listed. Expiry is computed from the injected clock; write transactions
 * also delete expired rows. No observation per write (as seed 000's context): the row
 * keeps who and when, and every call leaves a receipt.
 */
import {
  deleteMeshEntry,
  getMeshEntry,
  listMeshKeys,
  type MeshEntry,
  purgeExpiredMeshEntries,
  putMeshEntry,
} from '@swarm/storage';
import {
  type BatchContextOperationInput,
  type BatchContextResult,
  type BatchOperation,
  type BatchOperationResult,
  ColonyError,
  type GetContextInput,
  type GetContextResult,
  isColonyError,
  type ListContextKeysInput,
  type ListContextKeysResult,
  type PushContextInput,
  type PushContextResult,
} from '@swarm/tools';
import type { DomainContext } from '../context';
import { requireAgentName, requireAgentNames } from './agent-names';

/** Most keys one list_context_keys answer holds. */
export const MAX_LISTED_KEYS = 1000;

interface PushRequest {
  readonly key: string;
  readonly value: unknown;
  readonly subscribers?: readonly string[] | undefined;
  readonly ttl?: number | undefined;
}

export function canRead(entry: Pick<MeshEntry, 'owner' | 'subscribers'>, agent: string): boolean {
  return entry.subscribers === null || entry.owner === agent || entry.subscribers.includes(agent);
}

export async function getContext(ctx: DomainContext, args: GetContextInput): Promise<GetContextResult> {
  const agent = requireAgentName(args.agent_name, 'agent_name');
  const entry = await readable(ctx, agent, args.key, ctx.clock.now());
  return { success: true, ...entryView(entry) };
}

export function pushContext(ctx: DomainContext, args: PushContextInput): Promise<PushContextResult> {
  const agent = requireAgentName(args.agent_name, 'agent_name');
  const subscribers = subscriberList(args.subscribers, 'subscribers');
  return ctx.store.write(async () => {
    const now = ctx.clock.now();
    await purgeExpiredMeshEntries(ctx.store, now);
    return { success: true, ...(await push(ctx, agent, { ...args, subscribers }, now)) };
  });
}

export async function listContextKeys(ctx: DomainContext, args: ListContextKeysInput): Promise<ListContextKeysResult> {
  const agent = requireAgentName(args.agent_name, 'agent_name');
  const keys = await listMeshKeys(ctx.store, {
    agent,
    now: ctx.clock.now(),
    ...(args.pattern ? { glob: toSqliteGlob(args.pattern) } : {}),
    limit: MAX_LISTED_KEYS + 1,
  });
  if (keys.length <= MAX_LISTED_KEYS) return { success: true, keys, count: keys.length };
  return { success: true, keys: keys.slice(0, MAX_LISTED_KEYS), count: MAX_LISTED_KEYS, truncated: true };
}

/**
 * Runs the operations in order in one write transaction. Atomic (the default): the
 * first failure throws, which rolls every earlier operation back. Not atomic: each
 * operation runs in its own savepoint and a failure is reported in its result.
 */
export function batchContextOperation(
  ctx: DomainContext,
  args: BatchContextOperationInput,
): Promise<BatchContextResult> {
  const agent = requireAgentName(args.agent_name, 'agent_name');
  const operations = args.operations.map((op, index) => checkOperation(op, index));
  const atomic = args.atomic ?? true;
  return ctx.store.write(async () => {
    const now = ctx.clock.now();
    await purgeExpiredMeshEntries(ctx.store, now);
    const results: BatchOperationResult[] = [];
    for (const [index, op] of operations.entries()) {
      const head = { index, type: op.type, key: op.key };
      if (atomic) {
        try {
          results.push({ ...head, success: true, ...(await runOperation(ctx, agent, op, now)) });
        } catch (error) {
          throw isColonyError(error) ? failedOperation(error, index, op) : error;
        }
        continue;
      }
      try {
        // A savepoint: a failing operation leaves nothing behind, the others stay.
        results.push({ ...head, success: true, ...(await ctx.store.write(() => runOperation(ctx, agent, op, now))) });
      } catch (error) {
        if (!isColonyError(error)) throw error;
        results.push({ ...head, success: false, error: error.message, error_code: error.code });
      }
    }
    const failed = results.filter((r) => !r.success).length;
    return { success: true, atomic, results, succeeded: results.length - failed, failed };
  });
}

async function runOperation(ctx: DomainContext, agent: string, op: BatchOperation, now: number) {
  if (op.type === 'get') {
    const entry = await readable(ctx, agent, op.key, now);
    return { value: JSON.parse(entry.value) as unknown, version: entry.version };
  }
  if (op.type === 'delete') {
    await readable(ctx, agent, op.key, now);
    await deleteMeshEntry(ctx.store, op.key);
    return { deleted: true as const };
  }
  // checkOperation made sure a push carries a value.
  const pushed = await push(ctx, agent, { ...op, value: op.value }, now);
  return { version: pushed.version, expires_at: pushed.expires_at };
}

/** Writes a key the agent may write (a new one, a public one, or one it may read). */
async function push(ctx: DomainContext, agent: string, request: PushRequest, now: number) {
  const current = await getMeshEntry(ctx.store, request.key, now);
  if (current && !canRead(current, agent)) throw accessDenied(request.key, agent);
  const subscribers = request.subscribers && request.subscribers.length > 0 ? [...request.subscribers] : null;
  const expiresAt = request.ttl === undefined ? null : now + request.ttl * 1000;
  const version = current ? current.version + 1 : 1;
  await putMeshEntry(ctx.store, {
    key: request.key,
    value: JSON.stringify(request.value),
    owner: agent,
    subscribers,
    version,
    now,
    expiresAt,
  });
  return { key: request.key, version, subscribers, expires_at: expiresAt };
}

/** The live entry, if the agent may read it: else KEY_NOT_FOUND or ACCESS_DENIED. */
async function readable(ctx: DomainContext, agent: string, key: string, now: number): Promise<MeshEntry> {
  const entry = await getMeshEntry(ctx.store, key, now);
  if (!entry) {
    throw new ColonyError('KEY_NOT_FOUND', `context key "${key}" does not exist (or expired)`, { details: { key } });
  }
  if (!canRead(entry, agent)) throw accessDenied(key, agent);
  return entry;
}

function accessDenied(key: string, agent: string): ColonyError {
  return new ColonyError('ACCESS_DENIED', `agent "${agent}" may not access context key "${key}"`, {
    details: { key },
  });
}

function entryView(entry: MeshEntry): Omit<GetContextResult, 'success'> {
  return {
    key: entry.key,
    value: JSON.parse(entry.value) as unknown,
    version: entry.version,
    owner: entry.owner,
    updated_at: entry.updatedAt,
    expires_at: entry.expiresAt,
  };
}

function subscriberList(names: readonly string[] | undefined, field: string): string[] | undefined {
  return names === undefined ? undefined : requireAgentNames(names, field);
}

/** value goes with push only (and push needs it); so do subscribers and ttl. */
function checkOperation(op: BatchOperation, index: number): BatchOperation {
  const where = `operations[${index}]`;
  const extra = (['value', 'subscribers', 'ttl'] as const).filter((field) => op[field] !== undefined);
  if (op.type !== 'push' && extra.length > 0) {
    throw invalid(`${where}: ${extra.join(', ')} only go with push, not ${op.type}`);
  }
  if (op.type === 'push' && op.value === undefined) throw invalid(`${where}: push needs a value`);
  if (op.subscribers === undefined) return op;
  return { ...op, subscribers: requireAgentNames(op.subscribers, `${where}.subscribers`) };
}

function invalid(message: string): ColonyError {
  return new ColonyError('INVALID_PARAMETERS', `invalid arguments: ${message}`, {
    details: { fields: ['operations'] },
  });
}

function failedOperation(error: ColonyError, index: number, op: BatchOperation): ColonyError {
  return new ColonyError(
    error.code,
    `operation ${index} (${op.type} "${op.key}") failed, nothing was written: ${error.message}`,
    {
      details: { ...error.details, failed_index: index, rolled_back: true },
      cause: error,
    },
  );
}

/**
 * A glob in the seed's spirit (fnmatch: `*`, `?`, `[abc]`, `[!abc]`) as a SQLite GLOB,
 * which spells a negated class `[^abc]`. Both are case-sensitive and match the whole key.
 */
export function toSqliteGlob(pattern: string): string {
  return pattern.replace(/\[!/g, '[^');
}

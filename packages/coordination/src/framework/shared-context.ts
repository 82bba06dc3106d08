/**
 * @module framework/shared-context
 * ctx_put / ctx_get / ctx_keys over the versioned `context_entries` table. A failed
 * condition is an answer, not an error: `{ ok: false, error: "version_mismatch",
 * key, version }`. High-volume by design, so no observation per write: the row keeps
 * who wrote it and when.
 */
import { contextVersion, getContext, listContextKeys, setContext, setContextIfVersion } from '@swarm/storage';
import {
  ColonyError,
  type CtxGetInput,
  type CtxGetResult,
  type CtxKeysInput,
  type CtxKeysResult,
  type CtxPutInput,
  type CtxPutResult,
} from '@swarm/tools';
import type { DomainContext } from '../context';

/** The key the orchestrator keeps the round number under; coord_status reports it. */
export const PHASE_KEY = 'phase';

export function putContext(ctx: DomainContext, args: CtxPutInput): Promise<CtxPutResult> {
  if ((args.mode === 'if_version') !== (args.expected_version !== undefined)) {
    throw new ColonyError(
      'INVALID_PARAMETERS',
      args.mode === 'if_version'
        ? 'invalid arguments: expected_version is required when mode is if_version'
        : `invalid arguments: expected_version goes only with mode if_version, not ${args.mode}`,
      { details: { fields: ['expected_version'] } },
    );
  }
  const write = { key: args.key, value: JSON.stringify(args.value), agent: args.agent, now: ctx.clock.now() };
  return ctx.store.write(async () => {
    if (args.mode === 'set') return { ok: true as const, key: args.key, version: await setContext(ctx.store, write) };
    const version = await setContextIfVersion(ctx.store, write, args.mode === 'if_absent' ? 0 : args.expected_version!);
    if (version !== undefined) return { ok: true as const, key: args.key, version };
    return {
      ok: false as const,
      error: 'version_mismatch' as const,
      key: args.key,
      version: await contextVersion(ctx.store, args.key),
    };
  });
}

export async function readContext(ctx: DomainContext, args: CtxGetInput): Promise<CtxGetResult> {
  const entry = await getContext(ctx.store, args.key);
  return entry
    ? { key: args.key, value: JSON.parse(entry.value), version: entry.version }
    : { key: args.key, value: null, version: 0 };
}

export async function contextKeys(ctx: DomainContext, args: CtxKeysInput): Promise<CtxKeysResult> {
  const keys = await listContextKeys(ctx.store, args.prefix ?? '', args.limit + 1);
  if (keys.length <= args.limit) return { keys };
  return { keys: keys.slice(0, args.limit), truncated: true };
}

/** The current phase: the number under PHASE_KEY, 0 when unset or not a number. */
export async function currentPhase(ctx: DomainContext): Promise<number> {
  const entry = await getContext(ctx.store, PHASE_KEY);
  if (!entry) return 0;
  const value: unknown = JSON.parse(entry.value);
  return typeof value === 'number' ? value : 0;
}

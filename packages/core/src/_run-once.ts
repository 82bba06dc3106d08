/**
 * @module run-once
 * Idempotent mutating calls: the registry's `idempotent` option over the store's
 * idempotency_keys table.
 */
import type { Clock } from '@swarm/coordination';
import { type ColonyStore, findIdempotentResult, saveIdempotentResult } from '@swarm/storage';
import { ColonyError } from '@swarm/tools';

/** Runs a mutating call once per (tool, key): the lookup, the call and the record commit together. */
export function runOnce<T>(
  store: ColonyStore,
  clock: Clock,
  tool: string,
  key: string,
  argsHash: string,
  fn: () => T | Promise<T>,
): Promise<T> {
  return store.write(async () => {
    const prior = await findIdempotentResult(store, tool, key);
    if (prior) {
      if (prior.argsHash !== argsHash) {
        throw new ColonyError(
          'IDEMPOTENCY_KEY_REUSED',
          `idempotency_key "${key}" was already used for ${tool} with different arguments`,
          { details: { idempotency_key: key } },
        );
      }
      return prior.result as T;
    }
    const result = await fn();
    await saveIdempotentResult(store, tool, key, argsHash, result, clock.now());
    return result;
  });
}

/**
 * @module mesh/mesh-service
 * The seed-001 backend: the context mesh and agent messages. One rule shared by every
 * call: a store another writer kept locked past the busy timeout answers TIMEOUT
 * (seed 001's code for an operation that timed out) instead of an internal error;
 * the transaction it was waiting for never started, so nothing was written.
 */
import { isStoreBusy } from '@swarm/storage';
import { ColonyError, type MeshBackend } from '@swarm/tools';
import type { DomainContext } from '../context';
import { broadcastMessage, inbox, sendMessage } from './agent-messages';
import { batchContextOperation, getContext, listContextKeys, pushContext } from './context-mesh';

export function createMeshBackend(ctx: DomainContext): MeshBackend {
  const timed =
    <A, R>(fn: (ctx: DomainContext, args: A) => R) =>
    (args: A): R => {
      try {
        const result = fn(ctx, args);
        // An async call (a write) is refused when its promise rejects.
        return (result instanceof Promise ? result.catch(asTimeout) : result) as R;
      } catch (error) {
        return asTimeout(error);
      }
    };
  return {
    context: {
      get: timed(getContext),
      push: timed(pushContext),
      keys: timed(listContextKeys),
      batch: timed(batchContextOperation),
    },
    messages: {
      send: timed(sendMessage),
      inbox: timed(inbox),
      broadcast: timed(broadcastMessage),
    },
  };
}

/** STORE_BUSY as TIMEOUT; any other error unchanged. */
function asTimeout(error: unknown): never {
  if (!isStoreBusy(error)) throw error;
  throw new ColonyError('TIMEOUT', 'the store stayed locked by another writer past the busy timeout: retry', {
    cause: error,
  });
}

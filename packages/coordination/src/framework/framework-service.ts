/**
 * @module framework/framework-service
 * The seed-000 backend: workspace files and write proposals, shared context and the
 * work queue, each call first taking a token from its (tool, agent) rate-limit bucket.
 */
import type { SwarmBackend } from '@swarm/tools';
import type { DomainContext } from '../context';
import { listFiles, readFile, searchFiles } from './file-reads';
import { RateLimiter, type RateLimitSettings } from './rate-limiter';
import { contextKeys, putContext, readContext } from './shared-context';
import * as queue from './work-queue';
import { decideProposals, pendingProposals, proposeWrite } from './write-proposals';

export interface FrameworkOptions {
  /** Apply approved writes to disk (`--allow-write`). Default false: approvals are recorded only. */
  readonly allowWrite?: boolean;
  /** Rate-limit rules; default DEFAULT_RATE_LIMITS. */
  readonly rateLimits?: RateLimitSettings;
}

export function createFrameworkBackend(ctx: DomainContext, options: FrameworkOptions = {}): SwarmBackend {
  const allowWrite = options.allowWrite ?? false;
  const limiter = new RateLimiter(ctx.clock, options.rateLimits);
  /** Runs `fn` once the agent's bucket for `tool` gave a token. */
  const limited =
    <A extends { agent: string }, R>(tool: string, fn: (args: A) => R) =>
    (args: A): R => {
      limiter.take(tool, args.agent);
      return fn(args);
    };
  return {
    files: {
      list: limited('fs_list', listFiles),
      read: limited('fs_read', readFile),
      search: limited('search_text', searchFiles),
      propose: limited('fs_write', (args) => proposeWrite(ctx, args)),
      proposals: limited('fs_proposals', (args) => pendingProposals(ctx, args, allowWrite)),
      decide: limited('arbiter_decide', (args) => decideProposals(ctx, args, allowWrite)),
    },
    context: {
      put: limited('ctx_put', (args) => putContext(ctx, args)),
      get: limited('ctx_get', (args) => readContext(ctx, args)),
      keys: limited('ctx_keys', (args) => contextKeys(ctx, args)),
    },
    queue: {
      enqueue: limited('coord_enqueue', (args) => queue.enqueue(ctx, args)),
      next: limited('coord_next', (args) => queue.next(ctx, args)),
      status: limited('coord_status', () => queue.status(ctx)),
      claim: limited('coord_claim', (args) => queue.claim(ctx, args)),
      complete: limited('coord_complete', (args) => queue.complete(ctx, args)),
      extend: limited('coord_extend', (args) => queue.extend(ctx, args)),
    },
  };
}

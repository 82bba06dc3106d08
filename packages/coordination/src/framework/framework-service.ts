/**
 * @module framework/framework-service
 * The seed-000 backend: workspace files and write proposals, shared context and the
 * work queue, each call first taking a token from its (tool, agent) rate-limit bucket.
 * The file tools work only under a root the server allows (ROOT_NOT_ALLOWED otherwise),
 * and only the arbiter configured at start may decide on write proposals.
 */
import { ColonyError, type FrameworkBackend } from '@swarm/tools';
import type { DomainContext } from '../context';
import { requireRoot } from '../roots';
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
  /**
   * The only agent whose arbiter_decide calls are accepted (`--arbiter`); others are
   * ACCESS_DENIED. Without one, decisions are recorded but approved writes never applied.
   */
  readonly arbiter?: string;
}

export function createFrameworkBackend(ctx: DomainContext, options: FrameworkOptions = {}): FrameworkBackend {
  const allowWrite = options.allowWrite ?? false;
  const arbiter = options.arbiter;
  /** Refuses a repo_root outside the roots the server allows, before any file is touched. */
  const confined =
    <A extends { repo_root: string }, R>(fn: (args: A) => R) =>
    (args: A): R => {
      requireRoot(ctx.roots, args.repo_root);
      return fn(args);
    };
  const decide = confined((args: Parameters<typeof decideProposals>[1]) => {
    if (arbiter !== undefined && args.agent !== arbiter) {
      throw new ColonyError(
        'ACCESS_DENIED',
        `only the arbiter configured at start may decide on writes, not "${args.agent}"`,
        {
          details: { agent: args.agent },
        },
      );
    }
    return decideProposals(ctx, args, allowWrite && arbiter !== undefined);
  });
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
      list: limited('fs_list', confined(listFiles)),
      read: limited('fs_read', confined(readFile)),
      search: limited('search_text', confined(searchFiles)),
      propose: limited(
        'fs_write',
        confined((args) => proposeWrite(ctx, args)),
      ),
      proposals: limited(
        'fs_proposals',
        confined((args) => pendingProposals(ctx, args, allowWrite && arbiter !== undefined)),
      ),
      decide: limited('arbiter_decide', decide),
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

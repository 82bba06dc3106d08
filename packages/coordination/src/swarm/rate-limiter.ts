/**
 * @module swarm/rate-limiter
 * Seed-000 rate limits: one token bucket per (tool, agent). A bucket holds up to
 * `limit` tokens and refills continuously at `limit` per `window_sec`; a call takes
 * one token, and a call finding none is refused with RATE_LIMITED, whose payload is
 * the seed's `{ error: "rate_limited", code: 429, tool, limit, remaining, reset_sec,
 * scope }`.
 *
 * Buckets live in the memory of the process, not in SQLite: a limit guards one server
 * (its CPU and disk) against a runaway agent, and a shared bucket would turn every
 * call, reads included, into a write transaction on the hot path. So N server
 * processes allow an agent up to N times the rate, and a restart refills the buckets.
 * Time comes from the injected clock.
 */
import { ColonyError } from '@swarm/tools';
import type { Clock } from '../clock';

export interface RateLimitRule {
  /** Tokens in a full bucket: the calls allowed in one window. */
  readonly limit: number;
  /** Seconds to refill an empty bucket. */
  readonly window_sec: number;
}

/** Rules by tool name; `*` is the rule of every tool not named. `false`: no limit. */
export type RateLimitSettings = Readonly<Record<string, RateLimitRule | false>>;

/**
 * Defaults: generous for the cheap shared-context and queue calls, tighter for the
 * tools that walk or read the disk.
 */
export const DEFAULT_RATE_LIMITS: RateLimitSettings = {
  '*': { limit: 600, window_sec: 60 },
  fs_list: { limit: 60, window_sec: 60 },
  search_text: { limit: 60, window_sec: 60 },
  fs_read: { limit: 300, window_sec: 60 },
  fs_write: { limit: 60, window_sec: 60 },
  // Runtime tools (seed 004): one token per workspace run, per worktree created.
  exec_parallel: { limit: 60, window_sec: 60 },
  swarm_run: { limit: 40, window_sec: 60 },
  workspace_fork: { limit: 40, window_sec: 60 },
};

/** Buckets kept before full (idle) ones are dropped. */
const MAX_BUCKETS = 10_000;

interface Bucket {
  tokens: number;
  at: number;
}

export class RateLimiter {
  readonly #clock: Clock;
  readonly #rules: RateLimitSettings;
  readonly #buckets = new Map<string, Bucket>();

  constructor(clock: Clock, rules: RateLimitSettings = DEFAULT_RATE_LIMITS) {
    this.#clock = clock;
    this.#rules = rules;
  }

  /** Takes `tokens` (default 1) from the (tool, agent) bucket, all or none, or throws RATE_LIMITED. */
  take(tool: string, agent: string, tokens = 1): void {
    const rule = this.#rules[tool] ?? this.#rules['*'];
    if (!rule) return;
    const now = this.#clock.now();
    const key = `${tool}\u0000${agent}`;
    const perMs = rule.limit / (rule.window_sec * 1000);
    const bucket = this.#buckets.get(key) ?? { tokens: rule.limit, at: now };
    // A clock set backwards (tests, NTP) refills nothing rather than draining.
    bucket.tokens = Math.min(rule.limit, bucket.tokens + Math.max(0, now - bucket.at) * perMs);
    bucket.at = now;
    if (bucket.tokens < tokens) {
      this.#buckets.set(key, bucket);
      throw new ColonyError('RATE_LIMITED', `${tool}: rate limited for ${agent}`, {
        details: {
          limit: rule.limit,
          remaining: Math.floor(bucket.tokens),
          reset_sec: Math.max(1, Math.ceil((Math.min(tokens, rule.limit) - bucket.tokens) / perMs / 1000)),
          scope: agent,
        },
      });
    }
    bucket.tokens -= tokens;
    if (!this.#buckets.has(key)) {
      if (this.#buckets.size >= MAX_BUCKETS) this.#sweep(now);
      this.#buckets.set(key, bucket);
    }
  }

  /** Drops buckets that have refilled completely: they hold nothing worth keeping. */
  #sweep(now: number): void {
    for (const [key, bucket] of this.#buckets) {
      const rule = this.#rules[key.slice(0, key.indexOf('\u0000'))] ?? this.#rules['*'];
      if (!rule || bucket.tokens + (now - bucket.at) * (rule.limit / (rule.window_sec * 1000)) >= rule.limit) {
        this.#buckets.delete(key);
      }
    }
  }
}

/**
 * Seed-000 rate limits: per-tool, per-agent token buckets on the injected clock,
 * answering the seed's rate_limited payload (code 429) through the registry.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { RateLimiter } from '../src/framework/rate-limiter';
import { DEFAULT_RATE_LIMITS, manualClock } from '../src/index';
import { createFixture, type Fixture, START } from './_fixture';

let fx: Fixture;
afterEach(() => fx?.close());

describe('rate limits through the registry', () => {
  it('refuses the call past the limit with the seed payload, per tool and per agent', async () => {
    fx = createFixture(undefined, { rateLimits: { '*': { limit: 3, window_sec: 30 } } });
    const get = (agent: string) => fx.ok('ctx_get', { agent, key: 'k' });
    for (let i = 0; i < 3; i++) await get('Gemini');
    const refused = await fx.fail('ctx_get', { agent: 'Gemini', key: 'k' });
    expect(refused).toEqual({
      error: 'rate_limited',
      code: 429,
      tool: 'ctx_get',
      limit: 3,
      remaining: 0,
      reset_sec: 10,
      scope: 'Gemini',
      timestamp: new Date(START).toISOString(),
    });
    // Another agent, and another tool of the same agent, have buckets of their own.
    await get('Claude');
    await fx.ok('ctx_keys', { agent: 'Gemini' });
  });

  it('refills with the clock: one token per window/limit seconds', async () => {
    fx = createFixture(undefined, { rateLimits: { '*': { limit: 2, window_sec: 10 } } });
    const call = () => fx.ok('coord_status', { agent: 'Grok' });
    await call();
    await call();
    fx.clock.advance(4_000);
    expect(await fx.fail('coord_status', { agent: 'Grok' })).toMatchObject({ remaining: 0, reset_sec: 1 });
    fx.clock.advance(1_000);
    await call();
    fx.clock.advance(60_000);
    await call();
    await call();
    expect((await fx.fail('coord_status', { agent: 'Grok' })).reset_sec).toBe(5);
  });

  it('takes per-tool rules over `*`, and false lifts a limit', async () => {
    fx = createFixture(undefined, { rateLimits: { '*': { limit: 1, window_sec: 60 }, ctx_get: false } });
    for (let i = 0; i < 20; i++) await fx.ok('ctx_get', { agent: 'Gemini', key: 'k' });
    await fx.ok('ctx_keys', { agent: 'Gemini' });
    expect((await fx.fail('ctx_keys', { agent: 'Gemini' })).code).toBe(429);
  });

  it('counts refused writes too, and writes nothing for them', async () => {
    fx = createFixture(undefined, { rateLimits: { ctx_put: { limit: 1, window_sec: 60 } } });
    await fx.ok('ctx_put', { agent: 'Gemini', key: 'k', value: 1 });
    expect((await fx.fail('ctx_put', { agent: 'Gemini', key: 'k', value: 2 })).error).toBe('rate_limited');
    expect((await fx.ok('ctx_get', { agent: 'Gemini', key: 'k' })).value).toBe(1);
  });
});

describe('RateLimiter', () => {
  it('has tighter defaults for the disk tools than for context and queue calls', () => {
    const rule = (tool: string) => DEFAULT_RATE_LIMITS[tool] ?? DEFAULT_RATE_LIMITS['*'];
    expect(rule('fs_list')).toEqual({ limit: 60, window_sec: 60 });
    expect(rule('ctx_get')).toEqual({ limit: 600, window_sec: 60 });
  });

  it('refills nothing when the clock goes backwards', () => {
    const clock = manualClock(START);
    const limiter = new RateLimiter(clock, { '*': { limit: 1, window_sec: 1 } });
    limiter.take('fs_read', 'a');
    clock.set(START - 60_000);
    expect(() => limiter.take('fs_read', 'a')).toThrow(/rate limited/);
    clock.set(START + 1_000);
    expect(() => limiter.take('fs_read', 'a')).not.toThrow();
  });
});

/**
 * Seed-001 context mesh through the real registry: values by key, subscribers as an
 * access list (a restricted key is invisible and unreadable to everyone else), TTL
 * expiry on the manual clock, globs, agent names, and the seed's error shape.
 */
import { countMeshEntries } from '@swarm/storage';
import { afterEach, describe, expect, it } from 'vitest';
import { createFixture, type Fixture, START } from './_fixture';

let fx: Fixture;
afterEach(() => fx.close());

const push = (agent_name: string, args: Record<string, unknown>) => fx.ok('push_context', { agent_name, ...args });
const get = (agent_name: string, key: string) => fx.ok('get_context', { agent_name, key });
const keys = async (agent_name: string, pattern?: string) =>
  (await fx.ok<{ keys: string[] }>('list_context_keys', { agent_name, ...(pattern ? { pattern } : {}) })).keys;

describe('push_context / get_context', () => {
  it('stores any JSON value and reads it back with its owner and version', async () => {
    fx = createFixture();
    const value = { users: 1500, revenue: 50000 };
    expect(await push('DataCollector', { key: 'daily_metrics', value })).toEqual({
      success: true,
      key: 'daily_metrics',
      version: 1,
      subscribers: null,
      expires_at: null,
    });
    expect(await get('DataAnalyst', 'daily_metrics')).toEqual({
      success: true,
      key: 'daily_metrics',
      value,
      version: 1,
      owner: 'DataCollector',
      updated_at: START,
      expires_at: null,
    });
    for (const v of [null, 0, 'text', [1, [2]], false]) await push('DataCollector', { key: 'k', value: v });
    expect(await get('Anyone', 'k')).toMatchObject({ value: false, version: 5 });
  });

  it('answers an absent key with KEY_NOT_FOUND in the seed error shape', async () => {
    fx = createFixture();
    expect(await fx.fail('get_context', { agent_name: 'DataAnalyst', key: 'user_metrics' })).toEqual({
      success: false,
      error: 'context key "user_metrics" does not exist (or expired)',
      error_code: 'KEY_NOT_FOUND',
      tool: 'get_context',
      timestamp: new Date(START).toISOString(),
      key: 'user_metrics',
    });
  });

  it('writes no observation: the row keeps who and when', async () => {
    fx = createFixture();
    const before = fx.observations();
    await push('A', { key: 'k', value: 1 });
    expect(fx.observations()).toBe(before);
  });
});

describe('subscribers: an access list', () => {
  it('lets the owner and the subscribers read a restricted key, and nobody else', async () => {
    fx = createFixture();
    await push('DataCollector', {
      key: 'daily_metrics',
      value: { users: 1500 },
      subscribers: ['DataAnalyst', 'ReportGenerator'],
    });
    for (const reader of ['DataCollector', 'DataAnalyst', 'ReportGenerator']) {
      expect((await get(reader, 'daily_metrics')).value, reader).toEqual({ users: 1500 });
    }
    const denied = await fx.fail('get_context', { agent_name: 'Intruder', key: 'daily_metrics' });
    expect(denied).toMatchObject({ success: false, error_code: 'ACCESS_DENIED', tool: 'get_context' });
    expect(JSON.stringify(denied)).not.toContain('1500');
    expect(JSON.stringify(denied)).not.toContain('DataAnalyst');
  });

  it("keeps a restricted key out of everyone else's list", async () => {
    fx = createFixture();
    await push('A', { key: 'shared', value: 1 });
    await push('A', { key: 'secret', value: 2, subscribers: ['B'] });
    expect(await keys('A')).toEqual(['secret', 'shared']);
    expect(await keys('B')).toEqual(['secret', 'shared']);
    expect(await keys('C')).toEqual(['shared']);
    expect(await keys('C', 'sec*')).toEqual([]);
  });

  it('refuses a push over a key the agent cannot read, leaving it as it was', async () => {
    fx = createFixture();
    await push('A', { key: 'secret', value: 'v1', subscribers: ['B'] });
    expect((await fx.fail('push_context', { agent_name: 'C', key: 'secret', value: 'mine' })).error_code).toBe(
      'ACCESS_DENIED',
    );
    expect(await get('A', 'secret')).toMatchObject({ value: 'v1', version: 1, owner: 'A' });
  });

  it('lets a subscriber write the key, which makes it the owner', async () => {
    fx = createFixture();
    await push('A', { key: 'k', value: 1, subscribers: ['B'] });
    expect(await push('B', { key: 'k', value: 2, subscribers: ['C'] })).toMatchObject({
      version: 2,
      subscribers: ['C'],
    });
    expect(await get('C', 'k')).toMatchObject({ value: 2, owner: 'B' });
    expect((await fx.fail('get_context', { agent_name: 'A', key: 'k' })).error_code).toBe('ACCESS_DENIED');
  });

  it('treats an empty list as everyone, and drops duplicate names', async () => {
    fx = createFixture();
    expect(await push('A', { key: 'open', value: 1, subscribers: [] })).toMatchObject({ subscribers: null });
    expect((await get('Z', 'open')).value).toBe(1);
    expect(await push('A', { key: 'k', value: 1, subscribers: ['B', 'B', 'C'] })).toMatchObject({
      subscribers: ['B', 'C'],
    });
  });
});

describe('ttl', () => {
  it('expires a key on the clock: readable until then, gone after, for get and list', async () => {
    fx = createFixture();
    expect(await push('A', { key: 'temp', value: 1, ttl: 60 })).toMatchObject({ expires_at: START + 60_000 });
    fx.clock.advance(59_999);
    expect((await get('B', 'temp')).value).toBe(1);
    expect(await keys('B')).toEqual(['temp']);
    fx.clock.advance(1);
    expect((await fx.fail('get_context', { agent_name: 'B', key: 'temp' })).error_code).toBe('KEY_NOT_FOUND');
    expect(await keys('B')).toEqual([]);
  });

  it('lets anyone push over an expired restricted key, starting again at version 1', async () => {
    fx = createFixture();
    await push('A', { key: 'k', value: 1, subscribers: ['B'], ttl: 10 });
    await push('A', { key: 'k', value: 2, subscribers: ['B'], ttl: 10 });
    fx.clock.advance(10_000);
    expect(await push('C', { key: 'k', value: 3 })).toMatchObject({ version: 1, subscribers: null });
    expect(await get('D', 'k')).toMatchObject({ value: 3, owner: 'C', version: 1 });
  });

  it('deletes expired rows in the next write', async () => {
    fx = createFixture();
    await push('A', { key: 'a', value: 1, ttl: 1 });
    await push('A', { key: 'b', value: 1 });
    expect(countMeshEntries(fx.store)).toBe(2);
    fx.clock.advance(1000);
    await push('A', { key: 'c', value: 1 });
    expect(countMeshEntries(fx.store)).toBe(2);
  });

  it('drops the expiry when a key is pushed again without ttl', async () => {
    fx = createFixture();
    await push('A', { key: 'k', value: 1, ttl: 5 });
    expect(await push('A', { key: 'k', value: 2 })).toMatchObject({ version: 2, expires_at: null });
    fx.clock.advance(3_600_000);
    expect((await get('A', 'k')).value).toBe(2);
  });

  it('refuses a ttl that is not a positive whole number of seconds', async () => {
    fx = createFixture();
    for (const ttl of [0, -5, 1.5, '60']) {
      expect((await fx.fail('push_context', { agent_name: 'A', key: 'k', value: 1, ttl })).error_code).toBe(
        'INVALID_PARAMETERS',
      );
    }
    expect(countMeshEntries(fx.store)).toBe(0);
  });
});

describe('list_context_keys', () => {
  it('filters by a case-sensitive glob over the whole key', async () => {
    fx = createFixture();
    for (const key of ['user_a', 'user_b', 'User_c', 'metrics_daily', 'metrics_weekly', 'x_user_1'])
      await push('A', { key, value: 1 });
    expect(await keys('B', 'user_*')).toEqual(['user_a', 'user_b']);
    expect(await keys('B', 'metrics_?????')).toEqual(['metrics_daily']);
    expect(await keys('B', '*user*')).toEqual(['user_a', 'user_b', 'x_user_1']);
    expect(await keys('B', 'user_[ab]')).toEqual(['user_a', 'user_b']);
    expect(await keys('B', 'user_[!a]')).toEqual(['user_b']);
    expect(await keys('B', '[Uu]ser_*')).toEqual(['User_c', 'user_a', 'user_b']);
    expect(await fx.ok('list_context_keys', { agent_name: 'B', pattern: 'nothing*' })).toEqual({
      success: true,
      keys: [],
      count: 0,
    });
  });

  it('lists everything readable, sorted, without a pattern', async () => {
    fx = createFixture();
    for (const key of ['b', 'a', 'c']) await push('A', { key, value: 1 });
    expect(await fx.ok('list_context_keys', { agent_name: 'B' })).toEqual({
      success: true,
      keys: ['a', 'b', 'c'],
      count: 3,
    });
  });
});

describe('agent names', () => {
  it('answers INVALID_AGENT for a name colony cannot accept, writing nothing', async () => {
    fx = createFixture();
    for (const agent_name of ['', ' ', ' padded', 'tab\there', 'x'.repeat(65)]) {
      const refused = await fx.fail('push_context', { agent_name, key: 'k', value: 1 });
      expect(refused, JSON.stringify(agent_name)).toMatchObject({
        success: false,
        error_code: 'INVALID_AGENT',
        field: 'agent_name',
      });
    }
    const bad = await fx.fail('push_context', { agent_name: 'A', key: 'k', value: 1, subscribers: ['B', ''] });
    expect(bad).toMatchObject({ error_code: 'INVALID_AGENT', field: 'subscribers[1]' });
    expect((await fx.fail('get_context', { agent_name: '', key: 'k' })).error_code).toBe('INVALID_AGENT');
    expect((await fx.fail('list_context_keys', { agent_name: '' })).error_code).toBe('INVALID_AGENT');
    expect(countMeshEntries(fx.store)).toBe(0);
  });

  it('answers INVALID_PARAMETERS in the seed shape for malformed arguments', async () => {
    fx = createFixture();
    // An argument the tool does not declare is ignored and named (idempotency_key is accepted, unlisted).
    expect(await fx.ok('push_context', { agent_name: 'A', key: 'k0', value: 1, priority: 5 })).toMatchObject({
      success: true,
      ignored_arguments: ['priority'],
    });
    for (const args of [
      { agent_name: 'A', key: 'k' },
      { agent_name: 'A', key: '', value: 1 },
      { agent_name: 'A', key: 'k', value: 'x'.repeat(70_000) },
      { agent_name: 'A', key: 'k', value: 1, subscribers: 'B' },
      { agent_name: 'A', key: 'k', value: 1, idempotency_key: '' },
      { agent_name: 7, key: 'k', value: 1 },
    ]) {
      const refused = await fx.fail('push_context', args);
      expect(refused, JSON.stringify(args).slice(0, 80)).toMatchObject({
        success: false,
        error_code: 'INVALID_PARAMETERS',
        tool: 'push_context',
      });
      expect(refused).not.toHaveProperty('code');
    }
    expect(countMeshEntries(fx.store)).toBe(1); // k0 alone
  });
});

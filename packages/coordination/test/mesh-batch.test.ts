/**
 * batch_context_operation: operations in order in one transaction, all or nothing by
 * default (proved by counting rows and versions after a failing operation), per
 * operation with atomic false, and the access list honoured by every operation.
 */
import { countMeshEntries } from '@swarm/storage';
import { afterEach, describe, expect, it } from 'vitest';
import { createFixture, type Fixture, START } from './_fixture';

let fx: Fixture;
afterEach(() => fx.close());

const batch = (agent_name: string, operations: unknown[], atomic?: boolean) =>
  fx.ok('batch_context_operation', { agent_name, operations, ...(atomic === undefined ? {} : { atomic }) });
const failBatch = (agent_name: string, operations: unknown[], atomic?: boolean) =>
  fx.fail('batch_context_operation', { agent_name, operations, ...(atomic === undefined ? {} : { atomic }) });
const push = (agent_name: string, args: Record<string, unknown>) => fx.ok('push_context', { agent_name, ...args });
const get = (agent_name: string, key: string) => fx.ok('get_context', { agent_name, key });
const keys = async (agent_name: string) => (await fx.ok<{ keys: string[] }>('list_context_keys', { agent_name })).keys;

describe('batch_context_operation', () => {
  it("runs the seed's example in order: pushes, a get, a delete", async () => {
    fx = createFixture();
    await push('DataManager', { key: 'previous_metrics', value: { users: 1400 } });
    await push('DataManager', { key: 'temp_data', value: 'scratch' });
    const answer = await batch(
      'DataManager',
      [
        { type: 'push', key: 'user_count', value: 1500 },
        { type: 'push', key: 'active_sessions', value: 245, ttl: 60 },
        { type: 'get', key: 'previous_metrics' },
        { type: 'delete', key: 'temp_data' },
      ],
      true,
    );
    expect(answer).toEqual({
      success: true,
      atomic: true,
      results: [
        { index: 0, type: 'push', key: 'user_count', success: true, version: 1, expires_at: null },
        { index: 1, type: 'push', key: 'active_sessions', success: true, version: 1, expires_at: START + 60_000 },
        { index: 2, type: 'get', key: 'previous_metrics', success: true, value: { users: 1400 }, version: 1 },
        { index: 3, type: 'delete', key: 'temp_data', success: true, deleted: true },
      ],
      succeeded: 4,
      failed: 0,
    });
    expect(await keys('Anyone')).toEqual(['active_sessions', 'previous_metrics', 'user_count']);
  });

  it('lets a get see a push of the same batch', async () => {
    fx = createFixture();
    const answer = await batch('A', [
      { type: 'push', key: 'k', value: 1 },
      { type: 'push', key: 'k', value: 2 },
      { type: 'get', key: 'k' },
    ]);
    expect(answer.results).toContainEqual({ index: 2, type: 'get', key: 'k', success: true, value: 2, version: 2 });
  });

  it('is atomic by default: a failing operation rolls every one back, nothing half-written', async () => {
    fx = createFixture();
    await push('A', { key: 'existing', value: 'before' });
    await push('A', { key: 'doomed', value: 'kept' });
    const rows = countMeshEntries(fx.store);
    const refused = await failBatch('A', [
      { type: 'push', key: 'new_1', value: 1 },
      { type: 'push', key: 'existing', value: 'after' },
      { type: 'delete', key: 'doomed' },
      { type: 'get', key: 'missing' },
      { type: 'push', key: 'new_2', value: 2 },
    ]);
    expect(refused).toMatchObject({
      success: false,
      error_code: 'KEY_NOT_FOUND',
      tool: 'batch_context_operation',
      failed_index: 3,
      rolled_back: true,
      key: 'missing',
    });
    expect(refused.error).toContain('operation 3 (get "missing") failed, nothing was written');
    expect(countMeshEntries(fx.store)).toBe(rows);
    expect(await keys('A')).toEqual(['doomed', 'existing']);
    expect(await get('A', 'existing')).toMatchObject({ value: 'before', version: 1 });
    expect(await get('A', 'doomed')).toMatchObject({ value: 'kept' });
  });

  it('rolls back on an access refusal too', async () => {
    fx = createFixture();
    await push('Owner', { key: 'private', value: 'p', subscribers: ['Friend'] });
    const refused = await failBatch('Stranger', [
      { type: 'push', key: 'mine', value: 1 },
      { type: 'push', key: 'private', value: 'overwritten' },
    ]);
    expect(refused).toMatchObject({ error_code: 'ACCESS_DENIED', failed_index: 1, rolled_back: true });
    expect(countMeshEntries(fx.store)).toBe(1);
    expect(await get('Owner', 'private')).toMatchObject({ value: 'p', version: 1 });
  });

  it('honours the access list for get and delete: ACCESS_DENIED, the key untouched', async () => {
    fx = createFixture();
    await push('Owner', { key: 'private', value: 'p', subscribers: ['Friend'] });
    for (const type of ['get', 'delete']) {
      expect((await failBatch('Stranger', [{ type, key: 'private' }])).error_code, type).toBe('ACCESS_DENIED');
    }
    expect(await get('Friend', 'private')).toMatchObject({ value: 'p' });
    expect(await batch('Friend', [{ type: 'delete', key: 'private' }])).toMatchObject({ succeeded: 1 });
    expect(countMeshEntries(fx.store)).toBe(0);
  });

  it('with atomic false, commits what succeeds and reports each failure', async () => {
    fx = createFixture();
    await push('Owner', { key: 'private', value: 'p', subscribers: ['Friend'] });
    const answer = await batch(
      'Stranger',
      [
        { type: 'push', key: 'a', value: 1 },
        { type: 'get', key: 'private' },
        { type: 'delete', key: 'missing' },
        { type: 'push', key: 'b', value: 2, subscribers: ['Friend'] },
      ],
      false,
    );
    expect(answer).toMatchObject({ success: true, atomic: false, succeeded: 2, failed: 2 });
    expect(answer.results).toEqual([
      { index: 0, type: 'push', key: 'a', success: true, version: 1, expires_at: null },
      {
        index: 1,
        type: 'get',
        key: 'private',
        success: false,
        error: 'agent "Stranger" may not access context key "private"',
        error_code: 'ACCESS_DENIED',
      },
      {
        index: 2,
        type: 'delete',
        key: 'missing',
        success: false,
        error: 'context key "missing" does not exist (or expired)',
        error_code: 'KEY_NOT_FOUND',
      },
      { index: 3, type: 'push', key: 'b', success: true, version: 1, expires_at: null },
    ]);
    expect(countMeshEntries(fx.store)).toBe(3);
    expect(await keys('Friend')).toEqual(['a', 'b', 'private']);
    expect(await keys('Nobody')).toEqual(['a']);
  });

  it('refuses malformed operations before running any: INVALID_PARAMETERS or INVALID_AGENT', async () => {
    fx = createFixture();
    const cases: Array<[unknown[], string]> = [
      [[{ type: 'push', key: 'k' }], 'INVALID_PARAMETERS'],
      [[{ type: 'get', key: 'k', value: 1 }], 'INVALID_PARAMETERS'],
      [[{ type: 'delete', key: 'k', ttl: 5 }], 'INVALID_PARAMETERS'],
      [[{ type: 'rename', key: 'k' }], 'INVALID_PARAMETERS'],
      [[{ type: 'push', value: 1 }], 'INVALID_PARAMETERS'],
      [[], 'INVALID_PARAMETERS'],
      [Array.from({ length: 101 }, (_, i) => ({ type: 'push', key: `k${i}`, value: i })), 'INVALID_PARAMETERS'],
      [[{ type: 'push', key: 'k', value: 1, subscribers: ['ok', ' bad'] }], 'INVALID_AGENT'],
    ];
    for (const [operations, code] of cases) {
      const ops = [{ type: 'push', key: 'first', value: 0 }, ...operations];
      const refused = await failBatch('A', operations.length === 0 ? [] : ops, false);
      expect(refused.error_code, JSON.stringify(operations).slice(0, 80)).toBe(code);
    }
    expect((await failBatch('', [{ type: 'get', key: 'k' }])).error_code).toBe('INVALID_AGENT');
    expect(countMeshEntries(fx.store)).toBe(0);
  });

  it('treats an expired key as missing', async () => {
    fx = createFixture();
    await push('A', { key: 'k', value: 1, ttl: 30 });
    fx.clock.advance(30_000);
    expect((await failBatch('A', [{ type: 'get', key: 'k' }])).error_code).toBe('KEY_NOT_FOUND');
    expect((await failBatch('A', [{ type: 'delete', key: 'k' }])).error_code).toBe('KEY_NOT_FOUND');
  });
});

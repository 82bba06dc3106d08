/**
 * Seed-000 work queue through the registry: FIFO hand-out under leases, expiry driven
 * by the clock, and holder-only completion and extension.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createFixture, type Fixture, START } from './_fixture';

let fx: Fixture;
afterEach(() => fx.close());

const enqueue = (kind: string, payload: unknown = {}) =>
  fx.ok<{ id: string }>('coord_enqueue', { agent: 'Orchestrator', kind, payload });
const next = (agent: string, lease_sec = 180) => fx.ok('coord_next', { agent, lease_sec });
const status = () => fx.ok('coord_status', { agent: 'Orchestrator' });

describe('coord_enqueue / coord_next', () => {
  it('hands items out oldest first, one holder each, then null', async () => {
    fx = createFixture();
    expect(await enqueue('scan_docs', { dir: 'docs' })).toEqual({ enqueued: true, id: '1', kind: 'scan_docs' });
    await enqueue('lint');
    expect(await next('Gemini', 180)).toEqual({
      item: {
        id: '1',
        kind: 'scan_docs',
        payload: { dir: 'docs' },
        lease_until: START + 180_000,
        claimed_by: 'Gemini',
      },
    });
    expect((await next('Claude')).item).toMatchObject({ id: '2', kind: 'lint', payload: {}, claimed_by: 'Claude' });
    expect(await next('Grok')).toEqual({ item: null });
  });

  it('puts an item whose lease ran out back at its place, ahead of newer items', async () => {
    fx = createFixture();
    await enqueue('a');
    await next('Gemini', 60);
    await enqueue('b');
    fx.clock.advance(59_999);
    expect((await next('Claude', 60)).item.id).toBe('2');
    fx.clock.advance(1);
    expect((await next('Grok', 60)).item).toMatchObject({ id: '1', claimed_by: 'Grok', lease_until: START + 120_000 });
    expect(await next('Claude')).toEqual({ item: null });
  });

  it('writes no observation', async () => {
    fx = createFixture();
    const before = fx.observations();
    const { id } = await enqueue('a');
    await next('Gemini');
    await fx.ok('coord_complete', { agent: 'Gemini', id });
    expect(fx.observations()).toBe(before);
  });
});

describe('coord_status', () => {
  it('reports length, the front item and counts, expired leases counting as queued', async () => {
    fx = createFixture();
    expect(await status()).toEqual({ length: 0, front: null, counts: { queued: 0, claimed: 0, done: 0 }, phase: 0 });
    for (const kind of ['a', 'b', 'c']) await enqueue(kind, { kind });
    await next('Gemini', 10);
    await next('Claude', 100);
    await fx.ok('coord_complete', { agent: 'Claude', id: '2' });
    expect(await status()).toEqual({
      length: 1,
      front: { id: '3', kind: 'c', payload: { kind: 'c' }, status: 'queued' },
      counts: { queued: 1, claimed: 1, done: 1 },
      phase: 0,
    });
    fx.clock.advance(10_000);
    expect(await status()).toMatchObject({ length: 2, front: { id: '1' }, counts: { queued: 2, claimed: 0, done: 1 } });
  });
});

describe('coord_claim', () => {
  it('claims a given item, renews its own lease, and refuses a live lease of another', async () => {
    fx = createFixture();
    await enqueue('a');
    await enqueue('b');
    expect(await fx.ok('coord_claim', { agent: 'Gemini', id: '2', lease_sec: 30 })).toEqual({
      id: '2',
      kind: 'b',
      lease_until: START + 30_000,
      claimed_by: 'Gemini',
    });
    fx.clock.advance(10_000);
    expect((await fx.ok('coord_claim', { agent: 'Gemini', id: '2', lease_sec: 30 })).lease_until).toBe(START + 40_000);
    expect(await fx.fail('coord_claim', { agent: 'Claude', id: '2' })).toMatchObject({
      code: 'ALREADY_CLAIMED',
      claimed_by: 'Gemini',
      lease_until: START + 40_000,
    });
    expect((await next('Claude')).item.id).toBe('1');
    fx.clock.advance(30_000);
    expect((await fx.ok('coord_claim', { agent: 'Claude', id: '2' })).claimed_by).toBe('Claude');
  });

  it('refuses unknown and done items', async () => {
    fx = createFixture();
    const { id } = await enqueue('a');
    for (const unknown of ['99', 'abc', '0', '-1', '1.5']) {
      expect((await fx.fail('coord_claim', { agent: 'Gemini', id: unknown })).code, unknown).toBe(
        'QUEUE_ITEM_NOT_FOUND',
      );
    }
    await next('Gemini');
    await fx.ok('coord_complete', { agent: 'Gemini', id });
    expect((await fx.fail('coord_claim', { agent: 'Gemini', id })).code).toBe('QUEUE_ITEM_DONE');
  });
});

describe('coord_complete / coord_extend', () => {
  it('lets only the holder complete, once', async () => {
    fx = createFixture();
    const { id } = await enqueue('a');
    expect(await fx.fail('coord_complete', { agent: 'Gemini', id })).toMatchObject({
      code: 'LEASE_NOT_HELD',
      claimed_by: null,
    });
    await next('Gemini');
    expect(await fx.fail('coord_complete', { agent: 'Claude', id })).toMatchObject({
      code: 'LEASE_NOT_HELD',
      claimed_by: 'Gemini',
    });
    expect(await fx.ok('coord_complete', { agent: 'Gemini', id, result: { ok: true } })).toEqual({
      id,
      status: 'done',
    });
    expect((await fx.fail('coord_complete', { agent: 'Gemini', id })).code).toBe('QUEUE_ITEM_DONE');
    expect((await status()).counts).toEqual({ queued: 0, claimed: 0, done: 1 });
  });

  it('refuses a late completion once the item went to another holder; allows it while nobody took it', async () => {
    fx = createFixture();
    await enqueue('a');
    await enqueue('b');
    await next('Gemini', 10);
    await next('Gemini', 10);
    fx.clock.advance(10_000);
    expect((await next('Claude', 10)).item.id).toBe('1');
    expect(await fx.fail('coord_complete', { agent: 'Gemini', id: '1' })).toMatchObject({
      code: 'LEASE_NOT_HELD',
      claimed_by: 'Claude',
    });
    expect(await fx.ok('coord_complete', { agent: 'Gemini', id: '2' })).toEqual({ id: '2', status: 'done' });
    expect(await fx.ok('coord_complete', { agent: 'Claude', id: '1' })).toEqual({ id: '1', status: 'done' });
  });

  it('extends from the later of the lease end and now, for the holder only', async () => {
    fx = createFixture();
    const { id } = await enqueue('a');
    await next('Gemini', 60);
    expect(await fx.ok('coord_extend', { agent: 'Gemini', id, extend_sec: 30 })).toEqual({
      id,
      lease_until: START + 90_000,
    });
    fx.clock.advance(200_000);
    expect(await fx.ok('coord_extend', { agent: 'Gemini', id, extend_sec: 30 })).toEqual({
      id,
      lease_until: START + 230_000,
    });
    expect(await next('Claude')).toEqual({ item: null });
    expect((await fx.fail('coord_extend', { agent: 'Claude', id, extend_sec: 30 })).code).toBe('LEASE_NOT_HELD');
    expect((await fx.fail('coord_extend', { agent: 'Claude', id: '7', extend_sec: 30 })).code).toBe(
      'QUEUE_ITEM_NOT_FOUND',
    );
    for (const extend_sec of [0, -5, 1.5, 100_000]) {
      expect((await fx.fail('coord_extend', { agent: 'Gemini', id, extend_sec })).code).toBe('INVALID_PARAMETERS');
    }
  });
});

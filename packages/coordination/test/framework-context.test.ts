/**
 * Seed-000 shared context: versioned writes, conditional writes whose failure is an
 * answer, prefix listing, the findings convention and the phase barrier.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createFixture, type Fixture } from './_fixture';

let fx: Fixture;
afterEach(() => fx.close());

const put = (args: Record<string, unknown>) => fx.ok('ctx_put', { agent: 'Gemini', ...args });
const get = (key: string) => fx.ok('ctx_get', { agent: 'Claude', key });

describe('ctx_put / ctx_get', () => {
  it('stores any JSON value, versioned from 1 up, and reads it back', async () => {
    fx = createFixture();
    const finding = {
      ok: true,
      task: 'list_code_files',
      data: ['scripts/ai_swarm.py'],
      ts: '2025-01-01T12:00:00Z',
      agent: 'Gemini',
    };
    expect(await put({ key: 'Gemini.list_code_files', value: finding })).toEqual({
      ok: true,
      key: 'Gemini.list_code_files',
      version: 1,
    });
    expect(await get('Gemini.list_code_files')).toEqual({ key: 'Gemini.list_code_files', value: finding, version: 1 });
    for (const value of [null, 0, 'text', [1, [2]], false]) await put({ key: 'k', value });
    expect(await get('k')).toEqual({ key: 'k', value: false, version: 5 });
  });

  it('answers an absent key with value null and version 0', async () => {
    fx = createFixture();
    expect(await get('nobody.wrote.this')).toEqual({ key: 'nobody.wrote.this', value: null, version: 0 });
  });

  it('if_absent writes a new key only; a present key is a version_mismatch answer', async () => {
    fx = createFixture();
    expect(await put({ key: 'lock', value: 'a', mode: 'if_absent' })).toEqual({ ok: true, key: 'lock', version: 1 });
    expect(await put({ key: 'lock', value: 'b', mode: 'if_absent' })).toEqual({
      ok: false,
      error: 'version_mismatch',
      key: 'lock',
      version: 1,
    });
    expect((await get('lock')).value).toBe('a');
  });

  it('if_version writes only over the expected version (0 meaning absent)', async () => {
    fx = createFixture();
    expect(await put({ key: 'plan', value: 1, mode: 'if_version', expected_version: 0 })).toMatchObject({
      ok: true,
      version: 1,
    });
    expect(await put({ key: 'plan', value: 2, mode: 'if_version', expected_version: 1 })).toMatchObject({
      ok: true,
      version: 2,
    });
    expect(await put({ key: 'plan', value: 3, mode: 'if_version', expected_version: 1 })).toEqual({
      ok: false,
      error: 'version_mismatch',
      key: 'plan',
      version: 2,
    });
    expect(await put({ key: 'other', value: 3, mode: 'if_version', expected_version: 4 })).toEqual({
      ok: false,
      error: 'version_mismatch',
      key: 'other',
      version: 0,
    });
    expect(await get('plan')).toMatchObject({ value: 2, version: 2 });
  });

  it('refuses expected_version without if_version, if_version without it, and oversize values', async () => {
    fx = createFixture();
    for (const args of [
      { key: 'k', value: 1, mode: 'if_version' },
      { key: 'k', value: 1, expected_version: 0 },
      { key: 'k', value: 'x'.repeat(70_000) },
      { key: '', value: 1 },
      { key: 'k' },
    ]) {
      expect((await fx.fail('ctx_put', { agent: 'Gemini', ...args })).code, JSON.stringify(args).slice(0, 60)).toBe(
        'INVALID_PARAMETERS',
      );
    }
    expect((await get('k')).version).toBe(0);
  });

  it('writes no observation: the row keeps who and when', async () => {
    fx = createFixture();
    const before = fx.observations();
    await put({ key: 'k', value: 1 });
    expect(fx.observations()).toBe(before);
  });
});

describe('ctx_keys', () => {
  it('lists keys sorted, by literal prefix (glob characters included), up to limit', async () => {
    fx = createFixture();
    for (const key of ['Gemini.b', 'Gemini.a', 'Claude.a', 'Gem*ni.x', 'Gem?', 'Gemini[1]'])
      await put({ key, value: 1 });
    expect(await fx.ok('ctx_keys', { agent: 'Claude', prefix: 'Gemini.' })).toEqual({ keys: ['Gemini.a', 'Gemini.b'] });
    expect(await fx.ok('ctx_keys', { agent: 'Claude', prefix: 'Gem*' })).toEqual({ keys: ['Gem*ni.x'] });
    expect(await fx.ok('ctx_keys', { agent: 'Claude', prefix: 'Gemini[' })).toEqual({ keys: ['Gemini[1]'] });
    expect(await fx.ok('ctx_keys', { agent: 'Claude', prefix: 'gemini' })).toEqual({ keys: [] });
    expect(await fx.ok('ctx_keys', { agent: 'Claude', limit: 2 })).toEqual({
      keys: ['Claude.a', 'Gem*ni.x'],
      truncated: true,
    });
    expect((await fx.ok('ctx_keys', { agent: 'Claude' })).keys).toHaveLength(6);
  });
});

describe('phases', () => {
  it('coord_status reports the number under `phase`, 0 when unset or not a number', async () => {
    fx = createFixture();
    const phase = async () => (await fx.ok('coord_status', { agent: 'Orchestrator' })).phase;
    expect(await phase()).toBe(0);
    await put({ key: 'phase', value: 2 });
    expect(await phase()).toBe(2);
    await put({ key: 'phase', value: 'three' });
    expect(await phase()).toBe(0);
  });

  it('phase_ready works as a barrier with if_version: one agent advances a round', async () => {
    fx = createFixture();
    await put({ key: 'phase', value: 1 });
    const advance = (agent: string) =>
      fx.ok('ctx_put', { agent, key: 'phase', value: 2, mode: 'if_version', expected_version: 1 });
    const answers = await Promise.all(['Grok', 'Gemini', 'Claude'].map(advance));
    expect(answers.filter((a) => a.ok)).toHaveLength(1);
    expect((await get('phase')).value).toBe(2);
  });
});

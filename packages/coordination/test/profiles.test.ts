/**
 * agent_upsert_profile, agent_get_profile: capability weights per agent type, merged
 * dimension by dimension, 0.5 wherever nobody set one.
 */
import { listProfiles } from '@swarm/storage';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFixture, type Fixture, START } from './_fixture';

const DEFAULTS = { ui_work: 0.5, api_work: 0.5, test_work: 0.5, infra_work: 0.5, doc_work: 0.5 };

let fx: Fixture;
beforeEach(() => {
  fx = createFixture();
});
afterEach(() => fx.close());

describe('agent_get_profile', () => {
  it('answers 0.5 on every dimension for an agent never profiled, writing nothing', async () => {
    const profile = await fx.ok('agent_get_profile', { agent: 'codex' });
    expect(profile).toEqual({ agent: 'codex', capabilities: DEFAULTS, defaults: DEFAULTS });
    expect(listProfiles(fx.store)).toEqual([]);
  });
});

describe('agent_upsert_profile', () => {
  it('fills a first-time profile from the defaults and returns the saved profile', async () => {
    const saved = await fx.ok('agent_upsert_profile', {
      agent: 'claude',
      capabilities: { ui_work: 0.8, api_work: 0.7, test_work: 0.6 },
    });
    expect(saved).toEqual({
      agent: 'claude',
      capabilities: { ...DEFAULTS, ui_work: 0.8, api_work: 0.7, test_work: 0.6 },
      created_at: START,
      updated_at: START,
    });
    const read = await fx.ok('agent_get_profile', { agent: 'claude' });
    expect(read).toEqual({ agent: 'claude', capabilities: saved.capabilities, defaults: DEFAULTS });
  });

  it('keeps the current value of every weight not given', async () => {
    await fx.ok('agent_upsert_profile', { agent: 'claude', capabilities: { ui_work: 0.9, doc_work: 0.1 } });
    fx.clock.advance(1000);
    const saved = await fx.ok<{ capabilities: Record<string, number>; created_at: number; updated_at: number }>(
      'agent_upsert_profile',
      { agent: 'claude', capabilities: { ui_work: 0.2, db_work: 1 } },
    );
    expect(saved.capabilities).toEqual({ ...DEFAULTS, ui_work: 0.2, doc_work: 0.1, db_work: 1 });
    expect(saved.created_at).toBe(START);
    expect(saved.updated_at).toBe(START + 1000);
  });

  it('keys agents trimmed and lower-cased', async () => {
    await fx.ok('agent_upsert_profile', { agent: ' Claude ', capabilities: { api_work: 0.9 } });
    const read = await fx.ok<{ agent: string; capabilities: Record<string, number> }>('agent_get_profile', {
      agent: 'CLAUDE',
    });
    expect(read.agent).toBe('claude');
    expect(read.capabilities.api_work).toBe(0.9);
  });

  it('falls back to the family profile, then the defaults, for ranking', async () => {
    await fx.ok('agent_upsert_profile', { agent: 'claude', capabilities: { ui_work: 0.9 } });
    expect((await fx.profiles.weightsFor('claude-code')).ui_work).toBe(0.9);
    await fx.ok('agent_upsert_profile', { agent: 'claude-code', capabilities: { ui_work: 0.3 } });
    expect((await fx.profiles.weightsFor('claude-code')).ui_work).toBe(0.3);
    expect(await fx.profiles.weightsFor('gemini')).toEqual(DEFAULTS);
  });

  it.each([
    ['a weight above 1', { ui_work: 1.5 }],
    ['a negative weight', { api_work: -0.1 }],
    ['a dimension that is not snake_case', { 'UI Work': 0.5 }],
    ['a weight that is not a number', { ui_work: '0.5' }],
  ])('refuses %s with INVALID_PARAMETERS and stores nothing', async (_label, capabilities) => {
    const error = await fx.fail('agent_upsert_profile', { agent: 'claude', capabilities });
    expect(error.code).toBe('INVALID_PARAMETERS');
    expect(listProfiles(fx.store)).toEqual([]);
  });

  it('refuses more dimensions than a profile may carry', async () => {
    const capabilities = Object.fromEntries(Array.from({ length: 33 }, (_, i) => [`dim_${i}`, 0.5]));
    expect((await fx.fail('agent_upsert_profile', { agent: 'claude', capabilities })).code).toBe('INVALID_PARAMETERS');
    expect(listProfiles(fx.store)).toEqual([]);
  });

  it('refuses an upsert that would grow a stored profile past the limit, keeping the stored one', async () => {
    const first = Object.fromEntries(Array.from({ length: 27 }, (_, i) => [`dim_${i}`, 0.5]));
    await fx.ok('agent_upsert_profile', { agent: 'claude', capabilities: first });
    const error = await fx.fail('agent_upsert_profile', { agent: 'claude', capabilities: { extra_work: 1 } });
    expect(error.code).toBe('INVALID_PARAMETERS');
    expect(Object.keys(listProfiles(fx.store)[0]?.capabilities ?? {})).toHaveLength(27);
  });
});

import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { defaultTierUpFlags, LOAD_CALLS, LOAD_WINDOW_MS, TierUpUnderLoad, tierUpFlags } from '../src/serve/_heap';

describe('leanV8 flags', () => {
  it('are all known to the V8 of the Node running the suite (an unknown one is refused on stderr)', () => {
    const flags = ['--semi-space-growth-factor=1', ...tierUpFlags()];
    const script = `const v8 = require('node:v8'); for (const f of ${JSON.stringify(flags)}) v8.setFlagsFromString(f);`;
    const run = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8', timeout: 10_000 });
    expect(run.status).toBe(0);
    expect(run.stderr).toBe('');
  });

  it('use the interrupt budget on V8 11 and invocation counts from V8 12 on', () => {
    expect(tierUpFlags('11.3.244.8-node.33')[0]).toMatch(/^--interrupt-budget=/);
    expect(tierUpFlags('12.4.254.21-node.57')).toEqual([
      '--invocation-count-for-maglev=1600',
      '--invocation-count-for-turbofan=12000',
      '--no-sparkplug',
    ]);
    expect(tierUpFlags('11.3.244.8-node.33')).toContain('--no-sparkplug');
  });
});

describe('TierUpUnderLoad', () => {
  it(`sets V8's default tier-up once ${LOAD_CALLS} calls fall within ${LOAD_WINDOW_MS} ms, and only then`, () => {
    let now = 0;
    let switched = 0;
    const load = new TierUpUnderLoad(
      () => switched++,
      () => now,
    );
    // A brisk interactive pace, one call every 40 ms: LOAD_CALLS calls span more than the window.
    const pace = LOAD_WINDOW_MS / (LOAD_CALLS - 1) + 9;
    for (let i = 0; i < 10 * LOAD_CALLS; i++) {
      now += pace;
      load.call();
    }
    expect(switched).toBe(0);
    expect(load.loaded).toBe(false);
    // A pause, then a burst: the LOAD_CALLS-th call within the window switches, once.
    now += LOAD_WINDOW_MS + 1;
    for (let i = 0; i < LOAD_CALLS - 1; i++) {
      now += 1;
      load.call();
    }
    expect(switched).toBe(0);
    now += 1;
    load.call();
    expect(switched).toBe(1);
    for (let i = 0; i < 3 * LOAD_CALLS; i++) load.call();
    expect(switched).toBe(1);
    expect(load.loaded).toBe(true);
  });

  it("V8's default tier-up flags are known to the V8 of the Node running the suite and set at run time", () => {
    const script = `const v8 = require('node:v8'); for (const f of ${JSON.stringify(defaultTierUpFlags())}) v8.setFlagsFromString(f);`;
    const run = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8', timeout: 10_000 });
    expect(run.status).toBe(0);
    expect(run.stderr).toBe('');
    expect(defaultTierUpFlags('11.3.244.8-node.33')).toEqual([
      '--interrupt-budget=67584',
      '--max-bytecode-size-for-early-opt=81',
      '--sparkplug',
    ]);
    expect(defaultTierUpFlags('12.4.254.21-node.57')).toEqual([
      '--invocation-count-for-maglev=400',
      '--invocation-count-for-turbofan=3000',
      '--sparkplug',
    ]);
  });
});

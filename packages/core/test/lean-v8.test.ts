import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { tierUpFlags } from '../src/serve/_heap';

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

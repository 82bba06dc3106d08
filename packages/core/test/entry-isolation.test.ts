/**
 * Library users importing `@swarm/core` load neither the agent runtime nor a provider
 * SDK: the runtime is the separate `@swarm/core/runtime` entry. Checked on the BUILT
 * dist (what a user imports, chunks shared between entries included) in a child
 * process whose module resolutions a loader hook records.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { resolvedBy } from '../../../test/support/resolved-modules';

const CORE = fileURLToPath(new URL('..', import.meta.url));

/** Every URL the child resolves while importing `entry`, one per line. */
function loadedBy(entry: string): string[] {
  const child = resolvedBy(`await import(${JSON.stringify(entry)});`, CORE);
  expect(child.stderr).toBe('');
  expect(child.status).toBe(0);
  return child.urls;
}

const RUNTIME = /packages\/(runtime|providers)\/|@swarm\/(runtime|providers)|@anthropic-ai\/sdk/;

describe('@swarm/core entry isolation', () => {
  it('importing @swarm/core (built) loads neither @swarm/runtime, @swarm/providers nor @anthropic-ai/sdk', () => {
    const urls = loadedBy('@swarm/core');
    expect(urls.some((u) => u.includes('packages/core/dist/index.js'))).toBe(true);
    expect(urls.filter((u) => RUNTIME.test(u))).toEqual([]);
  });

  it('the check sees a loaded runtime: importing @swarm/core/runtime brings @swarm/runtime', () => {
    const urls = loadedBy('@swarm/core/runtime');
    expect(urls.some((u) => u.includes('packages/runtime/dist/'))).toBe(true);
  });
});

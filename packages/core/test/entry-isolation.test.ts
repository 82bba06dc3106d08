/**
 * Library users importing `@swarm/core` load neither the agent runtime nor a provider
 * SDK: the runtime is the separate `@swarm/core/runtime` entry. Checked on the BUILT
 * dist (what a user imports, chunks shared between entries included) in a child
 * process whose module resolutions a loader hook records.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const CORE = fileURLToPath(new URL('..', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'entry-isolation-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Every URL the child resolves while importing `entry`, one per line. */
function loadedBy(entry: string): string[] {
  const log = join(dir, `${Math.random().toString(36).slice(2)}.log`);
  const hooks = join(dir, 'hooks.mjs');
  writeFileSync(
    hooks,
    `import { appendFileSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  const out = await next(specifier, context);
  appendFileSync(${JSON.stringify(log)}, out.url + '\\n');
  return out;
}
`,
  );
  const register = join(dir, 'register.mjs');
  writeFileSync(
    register,
    `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(hooks).href)});\n`,
  );
  const child = spawnSync(
    process.execPath,
    ['--import', pathToFileURL(register).href, '--input-type=module', '-e', `await import(${JSON.stringify(entry)});`],
    { cwd: CORE, encoding: 'utf8', timeout: 60_000 },
  );
  expect(child.stderr).toBe('');
  expect(child.status).toBe(0);
  return readFileSync(log, 'utf8').trim().split('\n');
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

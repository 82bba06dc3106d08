/**
 * The app bundles include every library they import, except the ones a package loads with
 * `createRequire` on first use: esbuild cannot see through that call, so those are
 * resolved at run time from the app's own dependencies. Each app lists them, at the range
 * the loading package declares, or the installed app would fail on the first tool that
 * needs one (a workflow's YAML, say).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..');
const manifest = (dir: string) =>
  JSON.parse(readFileSync(join(ROOT, dir, 'package.json'), 'utf8')) as {
    dependencies?: Record<string, string>;
    devDependencies?: Record<string, string>;
  };

/** The libraries `packages/coordination/src/_lazy-deps.ts` loads on first use. */
function lazyLibraries(): string[] {
  const source = readFileSync(join(ROOT, 'packages/coordination/src/_lazy-deps.ts'), 'utf8');
  return [...source.matchAll(/\blazy<[^>]*>\('([^']+)'\)/g)].map((m) => m[1] as string);
}

describe('app dependencies', () => {
  it('finds the lazily loaded libraries', () => {
    expect(lazyLibraries().sort()).toEqual(['ignore', 'node-diff3', 'picomatch', 're2js', 'smol-toml', 'yaml']);
  });

  it.each(readdirSync(join(ROOT, 'apps')))('apps/%s lists each at the range coordination declares', (app) => {
    const coordination = manifest('packages/coordination').dependencies ?? {};
    const own = manifest(`apps/${app}`).dependencies ?? {};
    for (const name of lazyLibraries()) expect({ name, range: own[name] }).toEqual({ name, range: coordination[name] });
  });
});

/**
 * The published packages, packed and installed as a user would get them: `pnpm pack`
 * of each public workspace package (from the built tree), then `npm install` of the
 * tarballs into a temporary prefix outside the repository. npm fetches the third-party
 * dependencies from the registry (or its cache); better-sqlite3's install script is
 * skipped (its prebuilt download needs GitHub) and the workspace's own binding, built
 * for the running Node, is copied in: what the prebuilt download puts there.
 */
import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';

export const ROOT = join(import.meta.dirname, '..', '..');
const run = promisify(execFile);

/** Every workspace package that is published (not private), by folder. */
export function publicPackages(): Array<{ dir: string; name: string }> {
  return ['packages', 'apps'].flatMap((group) =>
    readdirSync(join(ROOT, group)).flatMap((name) => {
      const dir = join(ROOT, group, name);
      const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
      return manifest.private ? [] : [{ dir, name: manifest.name as string }];
    }),
  );
}

/**
 * Packs every public package into `dest` (one recursive `pnpm pack`: the same tarballs
 * as one `pnpm pack` per package, for a quarter of the processor time); answers the tarball paths.
 */
export async function packAll(dest: string): Promise<string[]> {
  mkdirSync(dest, { recursive: true });
  const filters = publicPackages().flatMap(({ name }) => ['--filter', name]);
  await run('pnpm', ['-r', ...filters, 'pack', '--pack-destination', dest], { cwd: ROOT });
  return readdirSync(dest)
    .filter((f) => f.endsWith('.tgz'))
    .map((f) => join(dest, f));
}

/** The workspace's better-sqlite3: its version and the binding built for this Node. */
function workspaceSqlite(): { version: string; binding: string } {
  const require = createRequire(join(ROOT, 'packages', 'storage', 'package.json'));
  const manifest = require.resolve('better-sqlite3/package.json');
  const { version } = JSON.parse(readFileSync(manifest, 'utf8'));
  return { version, binding: join(dirname(manifest), 'build', 'Release', 'better_sqlite3.node') };
}

/** Installs the tarballs into `prefix` with npm; answers the prefix's node_modules. */
export async function npmInstall(prefix: string, tarballs: readonly string[]): Promise<string> {
  const sqlite = workspaceSqlite();
  mkdirSync(prefix, { recursive: true });
  // The user's own project: the binding copied below must match the version installed.
  const project = { name: 'colony-install-check', private: true, overrides: { 'better-sqlite3': sqlite.version } };
  writeFileSync(join(prefix, 'package.json'), JSON.stringify(project));
  const flags = ['--prefer-offline', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'];
  await run('npm', ['install', '--prefix', prefix, ...flags, ...tarballs], { cwd: prefix, timeout: 150_000 });
  const modules = join(prefix, 'node_modules');
  const release = join(modules, 'better-sqlite3', 'build', 'Release');
  mkdirSync(release, { recursive: true });
  copyFileSync(sqlite.binding, join(release, 'better_sqlite3.node'));
  return modules;
}

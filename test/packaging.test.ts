/**
 * colony outside its checkout (issue 16): the public packages, packed from the built
 * tree and installed with npm into a temporary prefix, work from a folder outside the
 * repository: `colony --version`, `colony doctor --json`, an
 * MCP initialize and tools/call against `colony-mcp` over stdio with the SDK client,
 * and `@swarm/core` imported (ESM) and required (CommonJS) to call a tool.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { arethetypeswrong, publintMessages } from './support/package-lint';
import { npmInstall, packAll, ROOT } from './support/packing';

const run = promisify(execFile);
const work = mkdtempSync(join(tmpdir(), 'colony-packaging-'));
const home = join(work, 'home');
const env = { ...process.env, COLONY_HOME: home };
let modules = '';
let tarballs: string[] = [];

/** Runs an installed bin with this Node, from the folder outside the repository. */
const bin = (name: string, args: string[]) =>
  run(process.execPath, [join(modules, '.bin', name), ...args], { cwd: work, env, timeout: 30_000 });

beforeAll(async () => {
  tarballs = await packAll(join(work, 'tarballs'));
  modules = await npmInstall(join(work, 'prefix'), tarballs);
}, 180_000);

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('the tarballs', () => {
  it('are clean for publint (suggestions included) and arethetypeswrong (esm-only profile)', async () => {
    expect(tarballs.length).toBeGreaterThanOrEqual(8);
    const problems = await Promise.all(
      tarballs.map(async (t) => [...(await publintMessages(t)), ...(await arethetypeswrong(t))]),
    );
    expect(problems.flat()).toEqual([]);
  });

  it('each carry the LICENSE and a README, and the bundled CLI no source maps', async () => {
    const license = readFileSync(join(ROOT, 'LICENSE'), 'utf8');
    for (const tarball of tarballs) {
      const files = (await run('tar', ['tzf', tarball])).stdout.split('\n');
      expect(files, tarball).toEqual(expect.arrayContaining(['package/LICENSE', 'package/README.md']));
      expect((await run('tar', ['xzOf', tarball, 'package/LICENSE'])).stdout).toBe(license);
      if (/swarm-cli-/.test(tarball)) expect(files.filter((f) => f.endsWith('.map'))).toEqual([]);
    }
  });
});

describe('the installed packages', () => {
  it('colony --version prints the package version', async () => {
    const { version } = JSON.parse(readFileSync(join(ROOT, 'apps/cli/package.json'), 'utf8'));
    const { stdout } = await bin('colony', ['--version']);
    expect(stdout.trim()).toBe(version);
  });

  it('colony doctor --json reports the store it would open and a native module that loads', async () => {
    // Exit 1 means a check failed; the report is on stdout either way.
    const out = await bin('colony', ['doctor', '--json']).catch((error: { stdout?: string }) => error);
    const report = JSON.parse(out.stdout ?? '') as { checks: Array<{ id: string; status: string; message: string }> };
    const check = (id: string) => report.checks.find((c) => c.id === id);
    expect(check('sqlite')?.status).toBe('ok');
    expect(check('store')?.message).toContain(home);
  });

  it('colony-mcp answers initialize and tools/call over stdio', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [join(modules, '.bin', 'colony-mcp'), '--db', join(work, 'mcp.db')],
      cwd: work,
      env: env as Record<string, string>,
      stderr: 'pipe',
    });
    const client = new Client({ name: 'packaging-test', version: '0.0.0' });
    try {
      await client.connect(transport);
      expect(client.getServerVersion()?.name).toBe('colony');
      const result = await client.callTool({ name: 'search', arguments: { query: 'anything' } });
      expect(result.isError).not.toBe(true);
      expect(JSON.parse((result.content as Array<{ text: string }>)[0]?.text ?? '')).toEqual([]);
    } finally {
      await client.close();
    }
  });

  const script = (call: string) =>
    `${call}\nconst colony = openColony({ home: process.argv[2] });\n` +
    "const out = await colony.handleToolCall('search', { query: 'anything' });\n" +
    'colony.close();\nprocess.stdout.write(JSON.stringify(out.ok ? out.value : out.code));\n';

  it.each([
    ['ESM import', 'check.mjs', script("import { openColony } from '@swarm/core';")],
    ['require()', 'check.cjs', `(async () => {\n${script("const { openColony } = require('@swarm/core');")}})();`],
  ])('@swarm/core loads by %s and calls a tool', async (_how, file, source) => {
    writeFileSync(join(work, 'prefix', file), source);
    const { stdout } = await run(process.execPath, [join(work, 'prefix', file), join(work, `lib-${file}`)], {
      cwd: work,
      timeout: 30_000,
    });
    expect(JSON.parse(stdout)).toEqual([]);
  });
});

/**
 * The install lifecycle as real processes on temporary HOMEs: for every IDE, install
 * then uninstall gives back every config file byte for byte (files install created
 * are removed; the user's own servers, hooks and settings stay), `install --check`
 * reports absent, installed and outdated, `--scope project` writes the project's
 * files, and hooks follow a COLONY_HOME the user's MCP entry sets.
 */
import { execFile, execFileSync, spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { claude } from './_hook-payloads';

const CLI = join(fileURLToPath(new URL('../../..', import.meta.url)), 'apps/cli/dist/cli.js');
const run = promisify(execFile);

const newHome = () => realpathSync(mkdtempSync(join(tmpdir(), 'colony-lifecycle-')));

async function colony(home: string, args: string[], cwd = home) {
  try {
    const { stdout, stderr } = await run(process.execPath, [CLI, ...args], {
      cwd,
      encoding: 'utf8',
      timeout: 20_000,
      env: { ...process.env, HOME: home, CODEX_HOME: '', XDG_CONFIG_HOME: '', NO_COLOR: '1' },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

/** Every file under `dir` with its bytes, by relative path. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const path = join(d, name);
      if (statSync(path).isDirectory()) walk(path);
      else out[relative(dir, path)] = readFileSync(path, 'utf8');
    }
  };
  walk(dir);
  return out;
}

function write(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

/** Each IDE's config files holding the user's own entries, written as the IDE writes them. */
const USER_FILES: Record<string, Record<string, string>> = {
  'claude-code': {
    '.claude.json': JSON.stringify(
      { numStartups: 3, mcpServers: { gh: { type: 'stdio', command: 'gh-mcp', args: [] } } },
      null,
      2,
    ),
    '.claude/settings.json': `${JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'guard.sh' }] }] } }, null, 2)}\n`,
  },
  codex: {
    '.codex/config.toml': '# mine\nmodel = "gpt-5"\n\n[mcp_servers.docs]\ncommand = "docs-mcp"\n',
    '.codex/hooks.json': `${JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: 'command', command: 'notify.sh' }] }] } }, null, 4)}\n`,
  },
  cursor: {
    '.cursor/mcp.json': `${JSON.stringify({ mcpServers: { web: { command: 'npx', args: ['web-mcp'] } } }, null, 2)}\n`,
  },
  gemini: {
    '.gemini/settings.json': `${JSON.stringify({ theme: 'GitHub', mcpServers: { db: { command: 'db-mcp', env: { X: '1' } } } }, null, 2)}\n`,
  },
  opencode: {
    '.config/opencode/opencode.json': `${JSON.stringify({ $schema: 'https://opencode.ai/config.json', mcp: { fs: { type: 'local', command: ['fs-mcp'] } } }, null, 2)}\n`,
  },
};

describe.concurrent('colony install then colony uninstall', () => {
  it.each(Object.keys(USER_FILES))(
    "%s: leaves every config byte-identical, with and without the user's own files",
    async (ide) => {
      const withUser = newHome();
      for (const [path, text] of Object.entries(USER_FILES[ide] ?? {})) write(join(withUser, path), text);
      const fresh = newHome();
      for (const home of [withUser, fresh]) {
        const before = snapshot(home);
        const installed = await colony(home, ['install', '--ide', ide]);
        expect(installed.code, installed.stderr).toBe(0);
        expect(snapshot(home)).not.toEqual(before);
        const removed = await colony(home, ['uninstall', '--ide', ide]);
        expect(removed.code, removed.stderr).toBe(0);
        expect(removed.stdout).toContain(`${ide}: changed`);
        expect(snapshot(home)).toEqual(before);
      }
    },
  );

  it('uninstall where nothing is installed changes nothing', async () => {
    const home = newHome();
    write(join(home, '.cursor/mcp.json'), '{"mcpServers":{}}');
    const result = await colony(home, ['uninstall', '--ide', 'cursor']);
    expect(result.stdout).toContain('cursor: not installed; nothing changed');
    expect(readFileSync(join(home, '.cursor/mcp.json'), 'utf8')).toBe('{"mcpServers":{}}');
  });
});

describe('colony install --check', () => {
  it('reports absent, installed and outdated, exiting 1 unless the IDE named is installed and current', async () => {
    const home = newHome();
    const absent = await colony(home, ['install', '--check', '--ide', 'gemini', '--json']);
    expect(absent.code).toBe(1);
    expect(JSON.parse(absent.stdout)[0]).toMatchObject({ ide: 'gemini', scope: 'user', state: 'absent' });
    await colony(home, ['install', '--ide', 'gemini']);
    const ok = await colony(home, ['install', '--check', '--ide', 'gemini']);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toContain('gemini (user): installed');
    const moved = await colony(home, ['install', '--check', '--ide', 'gemini', '--command', '/opt/colony']);
    expect(moved.code).toBe(1);
    expect(moved.stdout).toContain('gemini (user): outdated');
    const all = await colony(home, ['install', '--check', '--json']);
    expect(all.code).toBe(0);
    expect(JSON.parse(all.stdout).map((c: { ide: string; state: string }) => `${c.ide}:${c.state}`)).toEqual([
      'claude-code:absent',
      'codex:absent',
      'cursor:absent',
      'gemini:installed',
      'opencode:absent',
    ]);
  });
});

describe('colony install --scope project', () => {
  it("writes the project's files for Claude Code and OpenCode, and refuses Codex", async () => {
    const home = newHome();
    const repo = join(home, 'repo');
    mkdirSync(join(repo, 'src'), { recursive: true });
    execFileSync('git', ['init', '-q'], { cwd: repo });
    const cwd = join(repo, 'src');
    expect((await colony(home, ['install', '--ide', 'claude-code', '--scope', 'project'], cwd)).code).toBe(0);
    expect(JSON.parse(readFileSync(join(repo, '.mcp.json'), 'utf8')).mcpServers.colony.args).toEqual([CLI, 'mcp']);
    expect(existsSync(join(repo, '.claude', 'settings.json'))).toBe(true);
    expect((await colony(home, ['install', '--ide', 'opencode', '--scope', 'project'], cwd)).code).toBe(0);
    expect(JSON.parse(readFileSync(join(repo, 'opencode.json'), 'utf8')).mcp.colony).toEqual({
      type: 'local',
      command: [process.execPath, CLI, 'mcp'],
      enabled: true,
    });
    expect(existsSync(join(home, '.claude.json'))).toBe(false);
    const codex = await colony(home, ['install', '--ide', 'codex', '--scope', 'project'], cwd);
    expect(codex.code).toBe(2);
    expect(codex.stderr).toBe('colony: codex has no project scope colony writes\n');
    expect((await colony(home, ['uninstall', '--ide', 'claude-code', '--scope', 'project'], cwd)).code).toBe(0);
    expect(existsSync(join(repo, '.mcp.json'))).toBe(false);
  });
});

describe('an MCP entry with its own COLONY_HOME', () => {
  it('gives the hooks the same home, so hooks and server use one store', async () => {
    const home = newHome();
    const store = join(home, 'team-store');
    const entry = { type: 'stdio', command: 'colony', args: ['mcp'], env: { COLONY_HOME: store } };
    write(join(home, '.claude.json'), JSON.stringify({ mcpServers: { colony: entry } }, null, 2));
    expect((await colony(home, ['install', '--ide', 'claude-code'])).code).toBe(0);
    const mcp = JSON.parse(readFileSync(join(home, '.claude.json'), 'utf8')).mcpServers.colony;
    expect(mcp.env).toEqual({ COLONY_HOME: store });
    const settings = JSON.parse(readFileSync(join(home, '.claude', 'settings.json'), 'utf8'));
    const command: string = settings.hooks.SessionStart[0].hooks[0].command;
    expect(command).toBe(`${process.execPath} ${CLI} hook run session-start --ide claude-code --home ${store}`);
    const repo = join(home, 'repo');
    mkdirSync(repo);
    execFileSync('git', ['init', '-q'], { cwd: repo });
    const hook = spawnSync('sh', ['-c', command], {
      input: JSON.stringify(claude.sessionStart('same-store', repo)),
      encoding: 'utf8',
      timeout: 20_000,
      env: { ...process.env, HOME: home, COLONY_HOME: '' },
    });
    expect(hook.status, hook.stderr).toBe(0);
    expect(existsSync(join(store, 'colony.db'))).toBe(true);
    expect(existsSync(join(home, '.colony'))).toBe(false);
  });
});

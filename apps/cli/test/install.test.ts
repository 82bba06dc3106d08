/**
 * `colony install` against a temporary HOME, as a real process: the written JSON and
 * TOML are read back and checked, a second run changes nothing, --dry-run writes
 * nothing, a malformed config is refused and left byte for byte, the user's other
 * settings (comments in TOML included) survive, and the hook command written into
 * the config really runs colony's hook when an IDE would run it.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'smol-toml';
import { beforeAll, describe, expect, it } from 'vitest';
import { claude } from './_hook-payloads';

const REPO_ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const CLI = join(REPO_ROOT, 'apps/cli/dist/cli.js');
const EVENTS = ['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'PostToolUse', 'Stop'];

interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** A fresh, empty HOME. */
function newHome(): string {
  return realpathSync(mkdtempSync(join(tmpdir(), 'colony-install-home-')));
}

function install(home: string, args: string[], env: Record<string, string> = {}): Run {
  const result = spawnSync(process.execPath, [CLI, 'install', ...args], {
    cwd: home,
    encoding: 'utf8',
    env: { ...process.env, HOME: home, CODEX_HOME: '', NO_COLOR: '1', ...env },
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

const readJson = (path: string) => JSON.parse(readFileSync(path, 'utf8'));
const readToml = (text: string) => parse(text) as { mcp_servers: Record<string, unknown>; [key: string]: unknown };
// biome-ignore lint/suspicious/noExplicitAny: config files are asserted field by field
const handlersOf = (config: any, event: string): any[] => config.hooks[event].flatMap((g: any) => g.hooks);
// biome-ignore lint/suspicious/noExplicitAny: config files are asserted field by field
const colonyHandlers = (config: any, event: string) =>
  handlersOf(config, event).filter((h) => String(h.command).includes(' hook run '));

beforeAll(() => {
  if (!existsSync(CLI)) throw new Error(`build the CLI first: ${CLI} is missing`);
});

describe('colony install --ide claude-code', () => {
  const home = newHome();
  const claudeJson = join(home, '.claude.json');
  const settings = join(home, '.claude', 'settings.json');
  const userClaudeJson = {
    numStartups: 12,
    projects: { '/work/app': { allowedTools: [], mcpServers: {} } },
    mcpServers: { github: { type: 'stdio', command: 'npx', args: ['-y', 'gh-mcp'], env: { TOKEN: 'x' } } },
  };
  const userBashHook = { matcher: 'Bash', hooks: [{ type: 'command', command: '~/bin/guard.sh', timeout: 5 }] };

  beforeAll(() => {
    writeFileSync(claudeJson, JSON.stringify(userClaudeJson));
    mkdirSync(join(home, '.claude'));
    writeFileSync(
      settings,
      `${JSON.stringify({ permissions: { allow: ['Bash(ls)'] }, hooks: { PreToolUse: [userBashHook] } }, null, 4)}\n`,
    );
  });

  it('registers the MCP server at user scope and the five hooks, keeping everything else', () => {
    const run = install(home, ['--ide', 'claude-code']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('claude-code: changed 2 files');
    expect(run.stdout).toContain(`${claudeJson}: mcpServers.colony added`);
    expect(run.stdout).toContain(
      `${settings}: hooks.SessionStart added, hooks.UserPromptSubmit added, hooks.PreToolUse added, hooks.PostToolUse added, hooks.Stop added`,
    );

    const mcp = readJson(claudeJson);
    expect(mcp.mcpServers.colony).toEqual({ type: 'stdio', command: process.execPath, args: [CLI, 'mcp'] });
    expect({ ...mcp, mcpServers: { github: mcp.mcpServers.github } }).toEqual(userClaudeJson);

    const config = readJson(settings);
    expect(config.permissions).toEqual({ allow: ['Bash(ls)'] });
    expect(config.hooks.PreToolUse[0]).toEqual(userBashHook);
    expect(config.hooks.PreToolUse[1]).toEqual({
      matcher: 'Edit|MultiEdit|Write|NotebookEdit',
      hooks: [
        { type: 'command', command: `${process.execPath} ${CLI} hook run pre-tool-use --ide claude-code`, timeout: 20 },
      ],
    });
    expect(config.hooks.PostToolUse[0].matcher).toBe('Edit|MultiEdit|Write|NotebookEdit');
    for (const event of ['SessionStart', 'UserPromptSubmit', 'Stop'])
      expect(config.hooks[event][0].matcher).toBeUndefined();
    for (const event of EVENTS) expect(colonyHandlers(config, event)).toHaveLength(1);
    // The file keeps its own indentation.
    expect(readFileSync(settings, 'utf8')).toMatch(/^\{\n {4}"permissions"/);
  });

  it('a second run reports every item unchanged and writes nothing', () => {
    const before = [readFileSync(claudeJson, 'utf8'), readFileSync(settings, 'utf8')];
    const run = install(home, ['--ide', 'claude-code']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('claude-code: already installed; nothing changed');
    expect(run.stdout).not.toMatch(/added|updated/);
    expect([readFileSync(claudeJson, 'utf8'), readFileSync(settings, 'utf8')]).toEqual(before);
  });

  it('a new launcher updates colony entries in place: no second handler, user hooks untouched', () => {
    const run = install(home, ['--ide', 'claude-code', '--command', '/opt/colony/bin/colony', '--json']);
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout);
    expect(report.files.flatMap((f: { items: Array<{ status: string }> }) => f.items.map((i) => i.status))).toEqual(
      Array(6).fill('updated'),
    );
    const config = readJson(settings);
    for (const event of EVENTS) expect(colonyHandlers(config, event)).toHaveLength(1);
    expect(colonyHandlers(config, 'Stop')[0].command).toBe('/opt/colony/bin/colony hook run stop --ide claude-code');
    expect(config.hooks.PreToolUse[0]).toEqual(userBashHook);
    expect(readJson(claudeJson).mcpServers.colony).toEqual({
      type: 'stdio',
      command: '/opt/colony/bin/colony',
      args: ['mcp'],
    });
  });

  it('--dry-run on a fresh HOME says what would change and writes nothing', () => {
    const fresh = newHome();
    const run = install(fresh, ['--ide', 'claude-code', '--dry-run']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('dry run: would change 2 files; nothing written');
    expect(run.stdout).toContain(`${join(fresh, '.claude.json')}: mcpServers.colony added`);
    expect(existsSync(join(fresh, '.claude.json'))).toBe(false);
    expect(existsSync(join(fresh, '.claude'))).toBe(false);
  });

  it('refuses a malformed config, leaving it and every other file untouched', () => {
    const broken = newHome();
    const text = '{ "numStartups": 3, "mcpServers": { ';
    writeFileSync(join(broken, '.claude.json'), text);
    const run = install(broken, ['--ide', 'claude-code']);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(
      new RegExp(`^colony: ${join(broken, '.claude.json')} is not valid JSON .*left untouched\\n$`),
    );
    expect(readFileSync(join(broken, '.claude.json'), 'utf8')).toBe(text);
    expect(existsSync(join(broken, '.claude', 'settings.json'))).toBe(false);
  });

  it("writes through a symlinked config (a dotfile manager's) and keeps the file mode", () => {
    const linked = newHome();
    const dotfiles = join(linked, 'dotfiles');
    mkdirSync(dotfiles);
    mkdirSync(join(linked, '.claude'));
    writeFileSync(join(dotfiles, 'settings.json'), '{ "model": "opus" }\n', { mode: 0o640 });
    symlinkSync(join(dotfiles, 'settings.json'), join(linked, '.claude', 'settings.json'));
    expect(install(linked, ['--ide', 'claude-code']).code).toBe(0);
    expect(lstatSync(join(linked, '.claude', 'settings.json')).isSymbolicLink()).toBe(true);
    const target = readJson(join(dotfiles, 'settings.json'));
    expect(target.model).toBe('opus');
    expect(colonyHandlers(target, 'PostToolUse')).toHaveLength(1);
    expect(statSync(join(dotfiles, 'settings.json')).mode & 0o777).toBe(0o640);
    expect(statSync(join(linked, '.claude.json')).mode & 0o777).toBe(0o600);
    expect(readdirSync(dotfiles)).toEqual(['settings.json']);
  });

  it('refuses a hooks entry of the wrong shape', () => {
    const odd = newHome();
    mkdirSync(join(odd, '.claude'));
    const text = JSON.stringify({ hooks: { Stop: 'echo done' } });
    writeFileSync(join(odd, '.claude', 'settings.json'), text);
    const run = install(odd, ['--ide', 'claude-code']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('hooks.Stop is not a list');
    expect(readFileSync(join(odd, '.claude', 'settings.json'), 'utf8')).toBe(text);
    expect(existsSync(join(odd, '.claude.json'))).toBe(false);
  });

  it('--allow-exec registers the MCP server with --allow-exec, and never the hooks', () => {
    const fresh = newHome();
    const run = install(fresh, ['--ide', 'claude-code', '--allow-exec']);
    expect(run.code).toBe(0);
    expect(readJson(join(fresh, '.claude.json')).mcpServers.colony).toEqual({
      type: 'stdio',
      command: process.execPath,
      args: [CLI, 'mcp', '--allow-exec'],
    });
    const config = readJson(join(fresh, '.claude', 'settings.json'));
    for (const event of EVENTS) {
      for (const hook of colonyHandlers(config, event)) expect(hook.command).not.toContain('--allow-exec');
    }
    const codex = install(fresh, ['--ide', 'codex', '--allow-exec']);
    expect(codex.code).toBe(0);
    expect(readToml(readFileSync(join(fresh, '.codex', 'config.toml'), 'utf8')).mcp_servers.colony).toEqual({
      command: process.execPath,
      args: [CLI, 'mcp', '--allow-exec'],
    });
  });

  it('an unknown --ide is a usage error', () => {
    const run = install(newHome(), ['--ide', 'vscode']);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe('colony: unknown --ide "vscode"; IDEs: claude-code, codex, cursor, gemini, opencode\n');
  });
});

describe('colony install --ide codex', () => {
  const home = newHome();
  const codexHome = join(home, '.codex');
  const configToml = join(codexHome, 'config.toml');
  const hooksJson = join(codexHome, 'hooks.json');
  const userToml = [
    '# my codex settings',
    'model = "gpt-5.1-codex" # the default model',
    '',
    '[features]',
    'codex_hooks = true',
    '',
    '[mcp_servers.docs]',
    'command = "npx"',
    'args = ["-y", "docs-mcp"]',
    '',
    '# keep this comment',
    '[profiles.fast]',
    'model = "gpt-5.1-codex-mini"',
    '',
  ].join('\n');

  beforeAll(() => {
    mkdirSync(codexHome);
    writeFileSync(configToml, userToml);
  });

  it('adds [mcp_servers.colony] keeping comments and other tables, and writes hooks.json', () => {
    const run = install(home, ['--ide', 'codex']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`${configToml}: mcp_servers.colony added`);
    expect(run.stdout).toContain(`${hooksJson}: hooks.SessionStart added`);
    expect(run.stdout).toContain('note: Codex runs new or changed hooks only after you review and trust them');

    const text = readFileSync(configToml, 'utf8');
    expect(text.startsWith(userToml.trimEnd())).toBe(true);
    const config = readToml(text);
    expect(config.mcp_servers.colony).toEqual({ command: process.execPath, args: [CLI, 'mcp'] });
    const { colony: _colony, ...others } = config.mcp_servers;
    expect({ ...config, mcp_servers: others }).toEqual(parse(userToml));

    const hooks = readJson(hooksJson);
    expect(Object.keys(hooks)).toEqual(['hooks']);
    expect(Object.keys(hooks.hooks)).toEqual(EVENTS);
    expect(hooks.hooks.PreToolUse).toEqual([
      {
        matcher: 'apply_patch',
        hooks: [
          { type: 'command', command: `${process.execPath} ${CLI} hook run pre-tool-use --ide codex`, timeout: 20 },
        ],
      },
    ]);
  });

  it('a second run changes nothing; a changed launcher rewrites only the colony table', () => {
    const before = readFileSync(configToml, 'utf8');
    expect(install(home, ['--ide', 'codex']).stdout).toContain('codex: already installed; nothing changed');
    expect(readFileSync(configToml, 'utf8')).toBe(before);

    const run = install(home, ['--ide', 'codex', '--command', 'colony']);
    expect(run.stdout).toContain(`${configToml}: mcp_servers.colony updated`);
    const text = readFileSync(configToml, 'utf8');
    expect(text).toContain('# keep this comment\n[profiles.fast]');
    expect(text.match(/\[mcp_servers\.colony\]/g)).toHaveLength(1);
    expect(readToml(text).mcp_servers.colony).toEqual({ command: 'colony', args: ['mcp'] });
    expect(colonyHandlers(readJson(hooksJson), 'Stop')).toEqual([
      { type: 'command', command: 'colony hook run stop --ide codex', timeout: 20 },
    ]);
  });

  it('follows $CODEX_HOME', () => {
    const fresh = newHome();
    const custom = join(fresh, 'codex-home');
    const run = install(fresh, ['--ide', 'codex'], { CODEX_HOME: custom });
    expect(run.code).toBe(0);
    expect(existsSync(join(custom, 'config.toml'))).toBe(true);
    expect(existsSync(join(custom, 'hooks.json'))).toBe(true);
    expect(existsSync(join(fresh, '.codex'))).toBe(false);
  });

  it('refuses malformed TOML and a colony table it cannot rewrite by section, touching nothing', () => {
    for (const text of ['model = = "x"\n', 'mcp_servers = { colony = { command = "old" } }\n']) {
      const broken = newHome();
      mkdirSync(join(broken, '.codex'));
      writeFileSync(join(broken, '.codex', 'config.toml'), text);
      const run = install(broken, ['--ide', 'codex']);
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(
        /^colony: .*config\.toml .*(not valid TOML|inline table or dotted keys).*left untouched\n$/,
      );
      expect(readFileSync(join(broken, '.codex', 'config.toml'), 'utf8')).toBe(text);
      expect(existsSync(join(broken, '.codex', 'hooks.json'))).toBe(false);
    }
  });
});

describe('the installed hook command runs colony', () => {
  it("runs SessionStart as Claude Code would (sh -c '<command>'), on the store install was pointed at", () => {
    const home = newHome();
    const store = join(home, 'colony-data');
    const repo = join(home, 'repo');
    mkdirSync(repo);
    execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: repo });
    expect(install(home, ['--ide', 'claude-code', '--home', store]).code).toBe(0);
    const [handler] = colonyHandlers(readJson(join(home, '.claude', 'settings.json')), 'SessionStart');
    expect(handler.command).toBe(`${process.execPath} ${CLI} hook run session-start --ide claude-code --home ${store}`);
    const run = spawnSync('sh', ['-c', handler.command], {
      input: JSON.stringify(claude.sessionStart('from-config', repo)),
      encoding: 'utf8',
      env: { ...process.env, HOME: home },
    });
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout).hookSpecificOutput.additionalContext).toContain('you are session claude-from-config');
    expect(existsSync(join(store, 'colony.db'))).toBe(true);
  });
});

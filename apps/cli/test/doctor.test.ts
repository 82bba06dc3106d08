/**
 * `colony doctor` as a real process on a temporary HOME: the documented JSON shape,
 * which store and why, a registration whose hooks and server use different stores
 * (a failure, exit 1), the token file's mode and --fix, and that doctor itself
 * creates no store.
 */
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { detectSandbox } from '@swarm/core';
import { describe, expect, it } from 'vitest';

const CLI = join(fileURLToPath(new URL('../../..', import.meta.url)), 'apps/cli/dist/cli.js');

interface Check {
  id: string;
  status: 'ok' | 'warn' | 'fail';
  message: string;
  fix?: string;
  details?: Record<string, unknown>;
}

function colony(home: string, args: string[], env: Record<string, string> = {}) {
  const r = spawnSync(process.execPath, [CLI, ...args], {
    cwd: home,
    encoding: 'utf8',
    timeout: 20_000,
    env: { ...process.env, HOME: home, COLONY_HOME: '', CODEX_HOME: '', XDG_CONFIG_HOME: '', NO_COLOR: '1', ...env },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

function doctor(home: string, args: string[] = [], env: Record<string, string> = {}) {
  const run = colony(home, ['doctor', '--json', ...args], env);
  const report = JSON.parse(run.stdout) as { ok: boolean; store: { backend: string; path: string }; checks: Check[] };
  return { code: run.code, report, check: (id: string) => report.checks.find((c) => c.id === id) as Check };
}

describe('colony doctor', () => {
  it('names a PostgreSQL store by its URL, the password masked, and does not connect to it', () => {
    const home = realpathSync(mkdtempSync(join(tmpdir(), 'colony-doctor-pg-')));
    const url = 'postgres://colony:hunter2@db.invalid/colony';
    const masked = 'postgres://colony:***@db.invalid/colony';
    for (const [args, env, why] of [
      [['--db', url], {}, 'from --db'],
      [[], { COLONY_DATABASE_URL: url }, 'from $COLONY_DATABASE_URL'],
    ] as const) {
      const { code, report, check } = doctor(home, [...args], env);
      expect(code).toBe(0);
      expect(report.store).toEqual({ backend: 'postgres', path: masked });
      expect(check('store')).toMatchObject({ status: 'ok', details: { backend: 'postgres', url: masked } });
      expect(check('store').message).toContain(why);
      const text = colony(home, ['doctor', ...args], env).stdout;
      expect(text.split('\n')[0]).toBe(`backend: postgres (${masked})`);
      expect(text + JSON.stringify(report)).not.toContain('hunter2');
    }
    // No file named like the URL anywhere.
    expect(existsSync(join(home, 'postgres:'))).toBe(false);
  });

  it('prints { ok, checks } with a check per concern and creates no store', () => {
    const home = realpathSync(mkdtempSync(join(tmpdir(), 'colony-doctor-')));
    const { code, report, check } = doctor(home);
    expect(code).toBe(0);
    expect(report.ok).toBe(true);
    expect(report.checks.map((c) => c.id)).toEqual([
      'store',
      'settings',
      'sqlite',
      'git',
      'ide',
      'http-token',
      'sandbox',
    ]);
    for (const c of report.checks) expect(['ok', 'warn', 'fail']).toContain(c.status);
    expect(report.store).toEqual({ backend: 'sqlite', path: join(home, '.colony', 'colony.db') });
    expect(check('store')).toMatchObject({
      status: 'warn',
      details: { backend: 'sqlite', source: 'default', db_path: join(home, '.colony', 'colony.db') },
    });
    expect(colony(home, ['doctor']).stdout.split('\n')[0]).toBe(
      `backend: sqlite (${join(home, '.colony', 'colony.db')})`,
    );
    expect(check('sqlite').status).toBe('ok');
    // The same answer the runtime gets (on CI, bubblewrap: the set-up installs it).
    const sandbox = detectSandbox();
    expect(check('sandbox')).toMatchObject(
      sandbox.kind
        ? { status: 'ok', message: `${sandbox.kind} (${sandbox.binary})` }
        : { status: 'warn', details: { sandbox: null, reason: sandbox.reason } },
    );
    if (process.env.CI === 'true') expect(check('sandbox').details).toMatchObject({ sandbox: 'bwrap' });
    expect(existsSync(join(home, '.colony'))).toBe(false);
    const store = join(home, 'elsewhere');
    expect(doctor(home, [], { COLONY_HOME: store }).check('store').details).toMatchObject({
      source: 'COLONY_HOME',
      home: store,
    });
    expect(doctor(home, ['--db', join(home, 'x.db')]).check('store').details?.source).toBe('db flag');
  });

  it('reports a bad settings file as a warning with its problem', () => {
    const home = realpathSync(mkdtempSync(join(tmpdir(), 'colony-doctor-')));
    mkdirSync(join(home, '.colony'));
    writeFileSync(join(home, '.colony', 'settings.json'), '{"search":{"alpha":7}}');
    expect(doctor(home).check('settings')).toMatchObject({
      status: 'warn',
      message: expect.stringContaining('search.alpha'),
    });
  });

  it('fails an IDE whose hooks and server use different stores, and passes it once reinstalled', () => {
    const home = realpathSync(mkdtempSync(join(tmpdir(), 'colony-doctor-')));
    expect(colony(home, ['install', '--ide', 'claude-code']).code).toBe(0);
    expect(doctor(home).check('ide:claude-code:user')).toMatchObject({ status: 'ok' });
    // The user points the server at another home by hand; the hooks still use the default.
    const path = join(home, '.claude.json');
    const config = JSON.parse(readFileSync(path, 'utf8'));
    config.mcpServers.colony.env = { COLONY_HOME: join(home, 'team') };
    writeFileSync(path, JSON.stringify(config, null, 2));
    const split = doctor(home);
    expect(split.code).toBe(1);
    expect(split.report.ok).toBe(false);
    expect(split.check('ide:claude-code:user')).toMatchObject({
      status: 'fail',
      message: `claude-code (user): hooks use ${join(home, '.colony', 'colony.db')} but the server uses ${join(home, 'team', 'colony.db')}`,
      fix: "colony install --ide claude-code (hooks then follow the server's store)",
    });
    expect(colony(home, ['install', '--ide', 'claude-code']).code).toBe(0);
    expect(doctor(home).check('ide:claude-code:user').status).toBe('ok');
  });

  it('fails a token file others can read; --fix sets mode 0600', () => {
    const home = realpathSync(mkdtempSync(join(tmpdir(), 'colony-doctor-')));
    const token = join(home, '.colony', 'mcp-http-token');
    mkdirSync(join(home, '.colony'));
    writeFileSync(token, 'a-token-of-enough-length\n');
    chmodSync(token, 0o644);
    const loose = doctor(home);
    expect(loose.code).toBe(1);
    expect(loose.check('http-token')).toMatchObject({
      status: 'fail',
      fix: `chmod 600 ${token} (or colony doctor --fix)`,
    });
    const human = colony(home, ['doctor']);
    expect(human.stdout).toMatch(/^fail {2}http-token +.* is readable by others \(mode 0644\)$/m);
    const fixed = doctor(home, ['--fix']);
    expect(fixed.check('http-token')).toMatchObject({ status: 'ok', details: { fixed: true } });
    expect(statSync(token).mode & 0o777).toBe(0o600);
  });
});

/**
 * The CLI in pipes and scripts, as real processes: colour only on a TTY (run under
 * `script`) and never with NO_COLOR, bash completion generated from the command tree
 * and driven through COMP_WORDS, "did you mean" for typos, read commands that refuse
 * a missing store without creating it, debug lines on stderr for hooks, and the whole
 * native-module error under a Node of another ABI.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { claude } from './_hook-payloads';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const CLI = join(ROOT, 'apps/cli/dist/cli.js');
const NODE22 = join(ROOT, 'test/conformance/node_modules/.bin/node');
const dir = mkdtempSync(join(tmpdir(), 'colony-pipes-'));
const ESC = '\u001b[';

/** The environment of a user's shell: no test or CI markers (citty turns colour off for those itself). */
function shellEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const { TEST: _t, CI: _c, NO_COLOR: _n, VITEST: _v, ...env } = process.env;
  return { ...env, HOME: dir, TERM: 'xterm-256color', ...extra };
}

function colony(args: string[], env = shellEnv(), input?: string, node = process.execPath) {
  const r = spawnSync(node, [CLI, ...args], { cwd: dir, env, encoding: 'utf8', timeout: 20_000, input });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Runs the CLI on a pseudo-terminal (util-linux `script`), returning what the terminal showed. */
function onTty(args: string[], env: NodeJS.ProcessEnv): string {
  const command = [process.execPath, CLI, ...args].map((w) => `'${w}'`).join(' ');
  return spawnSync('script', ['-qec', command, '/dev/null'], { env, encoding: 'utf8', timeout: 20_000 }).stdout;
}

describe('colour', () => {
  it('help is coloured on a TTY, and plain on a TTY with NO_COLOR set to any value', () => {
    expect(onTty(['status', '--help'], shellEnv())).toContain(ESC);
    for (const value of ['1', 'true']) {
      const shown = onTty(['status', '--help'], shellEnv({ NO_COLOR: value }));
      expect(shown).toContain('USAGE');
      expect(shown).not.toContain(ESC);
    }
  });

  it('help and output are plain in a pipe', () => {
    const help = colony(['status', '--help']);
    expect(help.stdout).toContain('USAGE colony status');
    expect(help.stdout).not.toContain(ESC);
    const doctor = colony(['doctor']);
    expect(doctor.stdout).toMatch(/^(ok|warn|fail) {2}/m);
    expect(doctor.stdout).not.toContain(ESC);
  });
});

describe('colony completion bash', () => {
  const script = join(dir, 'colony.bash');
  writeFileSync(script, colony(['completion', 'bash']).stdout);
  /** COMPREPLY after completing the last word of `words`. */
  const complete = (...words: string[]) => {
    const array = words.map((w) => `'${w}'`).join(' ');
    const run = spawnSync(
      'bash',
      [
        '-c',
        `source '${script}'; COMP_WORDS=(${array}); COMP_CWORD=${words.length - 1}; _colony; echo "\${COMPREPLY[*]}"`,
      ],
      { encoding: 'utf8', timeout: 10_000 },
    );
    expect(run.stderr).toBe('');
    return run.stdout.trim().split(' ');
  };

  it('completes commands, sub-commands and options from the command tree', () => {
    expect(complete('colony', 'sta')).toEqual(['status']);
    expect(complete('colony', 'task', 'po')).toEqual(['post']);
    expect(complete('colony', 'install', '--sc')).toEqual(['--scope']);
    expect(complete('colony', 'uninstall', '--')).toEqual(expect.arrayContaining(['--ide', '--scope', '--dry-run']));
    // Option values are skipped when finding the command.
    expect(complete('colony', 'task', 'post', '12', '--session', 's1', '--ki')).toEqual(['--kind']);
  });

  it('zsh and fish scripts are generated; an unknown shell is a usage error', () => {
    expect(colony(['completion', 'zsh']).stdout).toContain('bashcompinit');
    expect(colony(['completion', 'fish']).stdout).toContain('complete -c colony -f -n \'__colony_path_is "task"\'');
    const bad = colony(['completion', 'tcsh']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe('colony: unknown shell "tcsh"; shells: bash, zsh, fish\n');
  });
});

describe('did you mean', () => {
  it('suggests the closest command and option', () => {
    const cmd = colony(['stauts']);
    expect(cmd.code).toBe(2);
    expect(cmd.stderr).toBe(
      'colony: unknown command "stauts" for colony; did you mean "status"? (see colony --help)\n',
    );
    const flag = colony(['search', 'lexer', '--limt', '3']);
    expect(flag.code).toBe(2);
    expect(flag.stderr).toBe(
      'colony: unknown option --limt for colony search; did you mean --limit? (see colony search --help)\n',
    );
    expect(colony(['task', 'zzzzzz']).stderr).toContain('; commands: ');
  });
});

describe('read commands', () => {
  it('refuse a store that is not there, creating neither it nor its folder', () => {
    const typo = join(dir, 'no-such-dir', 'colony.db');
    for (const args of [['status'], ['search', 'x'], ['sessions'], ['plan', 'list']]) {
      const run = colony([...args, '--db', typo]);
      expect(run.code).toBe(1);
      expect(run.stderr).toBe(
        `colony: STORE_NOT_FOUND: no colony store at ${typo} (from --db); check the path, or run a command that writes to create it\n`,
      );
    }
    expect(existsSync(join(dir, 'no-such-dir'))).toBe(false);
  });
});

describe('debug lines', () => {
  it('--verbose and COLONY_DEBUG print triage lines on stderr; stdout stays the IDE output', () => {
    const repo = join(dir, 'repo');
    mkdirSync(repo, { recursive: true });
    const payload = JSON.stringify(claude.sessionStart('dbg', repo));
    const args = ['hook', 'run', 'session-start', '--ide', 'claude-code', '--home', join(dir, 'h')];
    const quiet = colony(args, shellEnv(), payload);
    expect(quiet.stderr).toBe('');
    for (const run of [
      colony([...args, '--verbose'], shellEnv(), payload),
      colony(args, shellEnv({ COLONY_DEBUG: '1' }), payload),
    ]) {
      expect(run.code).toBe(0);
      expect(run.stderr).toMatch(/^colony: debug: hook session-start \(claude-code\): \d+ bytes of input$/m);
      expect(run.stderr).toContain(`colony: debug: opening store ${join(dir, 'h', 'colony.db')} (from --home)`);
      expect(JSON.parse(run.stdout).hookSpecificOutput.hookEventName).toBe('SessionStart');
    }
  });
});

/**
 * A Node of another ABI than the binding's: Node 22 from the npm node package, or, when
 * the suite itself runs on Node 22 (test:lts swaps in a Node 22 binding), the system's.
 */
const OTHER_NODE = process.versions.node.startsWith('22.') ? '/usr/bin/node' : NODE22;
const otherMajor = existsSync(OTHER_NODE)
  ? spawnSync(OTHER_NODE, ['-p', 'process.versions.node.split(".")[0]'], { encoding: 'utf8' }).stdout.trim()
  : '';
const differs = otherMajor !== '' && otherMajor !== process.versions.node.split('.')[0];

describe.skipIf(!differs)('under a Node whose ABI differs (Node 22 from the npm node package)', () => {
  it('prints the whole native-module error with the rebuild command', () => {
    writeFileSync(join(dir, 'abi.db'), '');
    const run = colony(['status', '--db', join(dir, 'abi.db')], shellEnv(), undefined, OTHER_NODE);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('NODE_MODULE_VERSION');
    expect(run.stderr).toMatch(
      new RegExp(
        `colony: rebuild it for this Node \\(v${otherMajor}\\.[\\d.]+\\): cd '.*better-sqlite3' && npm run install\n$`,
      ),
    );
    const doctor = colony(['doctor', '--json'], shellEnv(), undefined, OTHER_NODE);
    expect(doctor.code).toBe(1);
    const sqlite = JSON.parse(doctor.stdout).checks.find((c: { id: string }) => c.id === 'sqlite');
    expect(sqlite.status).toBe('fail');
    expect(sqlite.message).toContain('NODE_MODULE_VERSION');
    expect(sqlite.fix).toContain('npm run install');
  });
});

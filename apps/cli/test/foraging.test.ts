/**
 * `colony foraging scan` and `colony examples list` run as real OS processes on a
 * temporary store and a real git repository with one example per manifest kind; and
 * the SessionStart hook (`colony hook run session-start`) scanning that repository
 * when settings.foraging.scanOnSessionStart is true, and not when it is off.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { countObservations, getObservation, listExamples, type Store } from '@swarm/storage';
import { beforeAll, describe, expect, it } from 'vitest';
import { exampleRepo, writeTree } from '../../../packages/coordination/test/_examples-repo';
import { claude } from './_hook-payloads';
import { git, readDb } from './_repo';

const CLI = join(fileURLToPath(new URL('../../..', import.meta.url)), 'apps/cli/dist/cli.js');
const dir = realpathSync(mkdtempSync(join(tmpdir(), 'colony-foraging-')));
const repo = join(dir, 'repo');

interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs the CLI on the store of `name` (its own db and home), from `cwd`. */
function colony(name: string, args: string[], options: { cwd?: string; input?: string } = {}): Run {
  const home = join(dir, `${name}-home`);
  const result = spawnSync(process.execPath, [CLI, ...args, '--db', join(dir, `${name}.db`), '--home', home], {
    cwd: options.cwd ?? dir,
    encoding: 'utf8',
    env: { ...process.env, COLONY_HOME: home, NO_COLOR: '1' },
    ...(options.input === undefined ? {} : { input: options.input }),
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

const readStore = <T>(name: string, fn: (store: Store) => T): T => readDb(join(dir, `${name}.db`), fn);

beforeAll(() => {
  exampleRepo(dir);
  git(repo, 'init', '-q', '-b', 'main');
  git(repo, 'add', '.');
  git(repo, 'commit', '-q', '-m', 'init');
});

describe('colony foraging scan', () => {
  it('prints each example with its kind and patterns written, then nothing new on a re-scan', async () => {
    const first = colony('cli', ['foraging', 'scan', '--repo-root', repo]);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toContain(`examples of ${repo}:`);
    expect(first.stdout).toMatch(/stripe-webhook\s+npm\s+new\s+4\s+4/);
    expect(first.stdout).toMatch(/rust-cli\s+cargo\s+new/);
    expect(first.stdout).toMatch(/plain-notes\s+unknown\s+new/);
    const before = readStore('cli', countObservations);
    const again = colony('cli', ['foraging', 'scan', '--json'], { cwd: join(repo, 'examples') });
    expect(again.code, again.stderr).toBe(0);
    const json = JSON.parse(again.stdout);
    expect(json.repo_root).toBe(repo);
    expect(json.examples).toHaveLength(5);
    expect(
      json.examples.every(
        (e: { status: string; patterns_written: number }) => e.status === 'unchanged' && e.patterns_written === 0,
      ),
    ).toBe(true);
    expect(await readStore('cli', countObservations)).toBe(before);
  });

  it('re-indexes a changed example only', () => {
    colony('cli', ['foraging', 'scan', '--repo-root', repo]);
    writeTree(repo, { 'examples/go-server/go.mod': 'module example.com/go-server\n\ngo 1.23\n' });
    const run = colony('cli', ['foraging', 'scan', '--repo-root', repo, '--json']);
    expect(run.code, run.stderr).toBe(0);
    const statuses = Object.fromEntries(
      JSON.parse(run.stdout).examples.map((e: { example_name: string; status: string }) => [e.example_name, e.status]),
    );
    expect(statuses['go-server']).toBe('changed');
    expect(Object.values(statuses).filter((s) => s === 'unchanged')).toHaveLength(4);
  });

  it('two scans racing in two processes index each example once', async () => {
    const home = join(dir, 'race-home');
    const run = () =>
      new Promise<{ code: number | null; stdout: string }>((done) => {
        const child = spawn(
          process.execPath,
          [CLI, 'foraging', 'scan', '--repo-root', repo, '--json', '--db', join(dir, 'race.db'), '--home', home],
          { env: { ...process.env, COLONY_HOME: home } },
        );
        let stdout = '';
        child.stdout.on('data', (chunk: Buffer) => {
          stdout += chunk.toString();
        });
        child.on('close', (code) => done({ code, stdout }));
      });
    const results = await Promise.all([run(), run()]);
    expect(results.map((r) => r.code)).toEqual([0, 0]);
    const written = results.map((r) =>
      JSON.parse(r.stdout).examples.reduce((n: number, e: { patterns_written: number }) => n + e.patterns_written, 0),
    );
    const rows = readStore('race', (store) => listExamples(store, repo));
    const current = rows.reduce((n, e) => n + e.observationCount, 0);
    expect(written[0] + written[1]).toBe(current);
    expect(await readStore('race', countObservations)).toBe(current);
  });

  it('lists the index with colony examples list', () => {
    colony('cli', ['foraging', 'scan', '--repo-root', repo]);
    const run = colony('cli', ['examples', 'list', '--repo-root', repo, '--json']);
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout).map((e: { example_name: string }) => e.example_name)).toEqual([
      'flask-app',
      'go-server',
      'plain-notes',
      'rust-cli',
      'stripe-webhook',
    ]);
    const human = colony('cli', ['examples', 'list', '--repo-root', repo]);
    expect(human.stdout).toMatch(/flask-app\s+pypi\s+3\s+\d{4}-/);
  });

  it('refuses a repository root that does not exist (exit 1, a code) and an unknown flag (exit 2)', () => {
    const missing = colony('cli', ['foraging', 'scan', '--repo-root', join(dir, 'nope')]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^colony: PATH_NOT_FOUND: /);
    const typo = colony('cli', ['foraging', 'scan', '--repo-rot', repo]);
    expect(typo.code).toBe(2);
  });
});

describe('SessionStart hook foraging', () => {
  const start = (name: string, session: string) =>
    colony(name, ['hook', 'run', 'session-start', '--ide', 'claude-code'], {
      input: JSON.stringify(claude.sessionStart(session, repo)),
    });

  it('scans the repository when settings.foraging.scanOnSessionStart is true', () => {
    mkdirSync(join(dir, 'on-home'), { recursive: true });
    writeFileSync(join(dir, 'on-home/settings.json'), JSON.stringify({ foraging: { scanOnSessionStart: true } }));
    const run = start('on', 'sess-on-1');
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout).systemMessage).toMatch(/^colony: indexed examples of .+ \(15 pattern\(s\)\)$/);
    const examples = readStore('on', (store) => listExamples(store, repo));
    expect(examples.map((e) => e.exampleName)).toHaveLength(5);
    const writer = readStore('on', (store) => getObservation(store, examples[0]?.firstPatternId ?? 0));
    expect(writer).toMatchObject({ kind: 'foraged-pattern', sessionId: 'claude-sess-on-1' });
    const second = start('on', 'sess-on-2');
    expect(second.code).toBe(0);
    expect(JSON.parse(second.stdout).systemMessage).toBeUndefined();
    // The second session registers itself and joins the thread, but forages nothing new.
    const after = readStore('on', (store) => listExamples(store, repo));
    expect(after.map((e) => e.firstPatternId)).toEqual(examples.map((e) => e.firstPatternId));
  });

  it('does not scan when the setting is off (the default)', () => {
    const run = start('off', 'sess-off-1');
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout).systemMessage).toBeUndefined();
    expect(readStore('off', (store) => listExamples(store, repo))).toEqual([]);
  });
});

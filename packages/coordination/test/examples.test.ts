/**
 * Foraging over real temporary repositories: the scan indexes one example per manifest
 * kind (npm, pypi, cargo, go, none), skips what git would not show (node_modules,
 * .gitignored and binary files, symlinks leading out), writes nothing for an unchanged
 * example, supersedes a changed one's patterns and drops a removed one; examples_list,
 * examples_query and examples_integrate_plan read that index.
 */
import { mkdirSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { getExample, getObservations } from '@swarm/storage';
import type { ExampleEntry, IntegratePlan, SearchHit } from '@swarm/tools';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FORAGER_SESSION_ID } from '../src/foraging/examples-service';
import { exampleRepo, STRIPE_PACKAGE, writeTree } from './_examples-repo';
import { createFixture, type Fixture, START } from './_fixture';

let fx: Fixture;
let repo: string;
beforeEach(() => {
  fx = createFixture();
  repo = realpathSync(exampleRepo(fx.dir));
});
afterEach(() => fx.close());

const list = () => fx.ok<ExampleEntry[]>('examples_list', { repo_root: repo });
const query = (args: Record<string, unknown>) => fx.ok<SearchHit[]>('examples_query', args);
const plan = (args: Record<string, unknown>) =>
  fx.ok<IntegratePlan>('examples_integrate_plan', { repo_root: repo, ...args });
const bodies = (hits: SearchHit[]) =>
  getObservations(
    fx.store,
    hits.map((h) => h.id),
  );

describe('foraging scan', () => {
  it('indexes each example with its manifest kind, one observation per pattern', async () => {
    const before = fx.observations();
    const scan = await fx.examples.scan(repo);
    expect(scan.repo_root).toBe(repo);
    const kinds = Object.fromEntries(scan.examples.map((e) => [e.example_name, e.manifest_kind]));
    expect(kinds).toEqual({
      'flask-app': 'pypi',
      'go-server': 'go',
      'plain-notes': 'unknown',
      'rust-cli': 'cargo',
      'stripe-webhook': 'npm',
    });
    expect(scan.examples.every((e) => e.status === 'new' && e.patterns_written > 0)).toBe(true);
    const written = scan.examples.reduce((n, e) => n + e.patterns_written, 0);
    expect(fx.observations() - before).toBe(written);
    const listed = await list();
    expect(listed.map((e) => e.example_name)).toEqual(Object.keys(kinds).sort());
    for (const entry of listed) {
      expect(Object.keys(entry).sort()).toEqual([
        'example_name',
        'last_scanned_at',
        'manifest_kind',
        'observation_count',
      ]);
      expect(entry.observation_count).toBe(
        scan.examples.find((e) => e.example_name === entry.example_name)?.patterns_written,
      );
      expect(entry.last_scanned_at).toBe(START);
    }
  });

  it('reads what git shows: no node_modules, .gitignored, binary or escaping files', async () => {
    rmSync(join(repo, 'examples/plain-notes'), { recursive: true });
    symlinkSync(join(fx.dir, 'outside.txt'), join(repo, 'examples/stripe-webhook/linked.txt'));
    writeFileSync(join(fx.dir, 'outside.txt'), 'outside secret');
    mkdirSync(join(fx.dir, 'elsewhere'));
    writeFileSync(join(fx.dir, 'elsewhere/package.json'), '{"name":"elsewhere"}');
    symlinkSync(join(fx.dir, 'elsewhere'), join(repo, 'examples/escape'));
    const scan = await fx.examples.scan(repo);
    expect(scan.skipped).toEqual([{ example_name: 'escape', reason: 'symlinked folder (not followed)' }]);
    expect((await list()).map((e) => e.example_name)).not.toContain('escape');
    const files = await query({ query: 'files', example_name: 'stripe-webhook' });
    const text = bodies(files)
      .map((o) => o.content)
      .join('\n');
    expect(text).toContain('src/index.ts');
    expect(text).not.toMatch(/node_modules|secret\.txt|linked\.txt/);
    expect(await query({ query: 'outside secret' })).toEqual([]);
  });

  it('writes nothing when an example is unchanged, only moves last_scanned_at', async () => {
    await fx.examples.scan(repo);
    const before = fx.observations();
    fx.clock.advance(60_000);
    const again = await fx.examples.scan(repo);
    expect(fx.observations()).toBe(before);
    expect(again.examples.every((e) => e.status === 'unchanged' && e.patterns_written === 0)).toBe(true);
    expect((await list()).every((e) => e.last_scanned_at === START + 60_000)).toBe(true);
  });

  it('replaces a changed example: new patterns, the old ones left out of queries and counts', async () => {
    await fx.examples.scan(repo);
    const oldHits = await query({ query: 'zod', example_name: 'stripe-webhook' });
    expect(oldHits.length).toBeGreaterThan(0);
    const { zod: _dropped, ...dependencies } = STRIPE_PACKAGE.dependencies;
    writeTree(repo, {
      'examples/stripe-webhook/package.json': JSON.stringify({
        ...STRIPE_PACKAGE,
        dependencies: { ...dependencies, valibot: '^0.30.0' },
      }),
    });
    fx.clock.advance(1_000);
    const scan = await fx.examples.scan(repo);
    const stripe = scan.examples.find((e) => e.example_name === 'stripe-webhook');
    expect(stripe).toMatchObject({ status: 'changed', manifest_kind: 'npm' });
    expect(scan.examples.filter((e) => e.status === 'unchanged')).toHaveLength(4);
    const entry = (await list()).find((e) => e.example_name === 'stripe-webhook');
    expect(entry?.observation_count).toBe(stripe?.patterns_written);
    expect(await query({ query: 'zod', example_name: 'stripe-webhook' })).toEqual([]);
    const fresh = await query({ query: 'valibot' });
    expect(fresh).toHaveLength(1);
    const [manifest] = bodies(fresh);
    expect(manifest?.metadata).toMatchObject({
      example_name: 'stripe-webhook',
      pattern: 'manifest',
      supersedes: [oldHits[0]?.id, expect.any(Number)],
    });
    expect((await plan({ example_name: 'stripe-webhook' })).dependency_delta.add).toHaveProperty('valibot');
  });

  it('drops the entry of an example whose folder is gone', async () => {
    await fx.examples.scan(repo);
    rmSync(join(repo, 'examples/rust-cli'), { recursive: true });
    const scan = await fx.examples.scan(repo);
    expect(scan.examples.find((e) => e.example_name === 'rust-cli')).toMatchObject({ status: 'removed' });
    expect((await list()).map((e) => e.example_name)).not.toContain('rust-cli');
    expect(await query({ query: 'clap' })).toEqual([]);
  });

  it('indexes a malformed manifest with a note instead of failing', async () => {
    writeTree(repo, {
      'examples/broken-npm/package.json': '{ "name": "broken", ',
      'examples/broken-toml/Cargo.toml': '[package\nname = ',
    });
    const scan = await fx.examples.scan(repo);
    expect(scan.examples.find((e) => e.example_name === 'broken-npm')?.manifest_kind).toBe('npm');
    expect(scan.examples.find((e) => e.example_name === 'broken-toml')?.manifest_kind).toBe('cargo');
    const broken = await plan({ example_name: 'broken-npm' });
    expect(broken.uncertainty_notes.join(' ')).toMatch(/package\.json is malformed/);
    expect(broken.dependency_delta).toEqual({ add: {}, remove: ['express', 'lodash'] });
    const toml = await plan({ example_name: 'broken-toml' });
    expect(toml.uncertainty_notes.join(' ')).toMatch(/Cargo\.toml is malformed/);
  });

  it('reads Poetry, setup.cfg, setup.py and go.mod dependencies', async () => {
    writeTree(repo, {
      'examples/poetry-app/pyproject.toml':
        '[tool.poetry]\nname = "poetry-app"\n\n[tool.poetry.dependencies]\npython = "^3.11"\nhttpx = "^0.27"\nrich = { version = "^13.7", optional = true }\n\n[tool.poetry.group.dev.dependencies]\npytest = "^8.0"\n',
      'examples/cfg-app/setup.cfg':
        '[metadata]\nname = cfg-app\n\n[options]\ninstall_requires =\n    click>=8\n    attrs\n\n[flake8]\nmax-line-length = 100\n',
      'examples/py-app/setup.py':
        'from setuptools import setup\nsetup(name="py-app", version="1.2", install_requires=["numpy>=1.26", \'pandas\'])\n',
    });
    await fx.examples.scan(repo);
    const summary = (name: string) => getExample(fx.store, repo, name)?.summary as Record<string, unknown>;
    expect(summary('poetry-app')).toMatchObject({
      name: 'poetry-app',
      dependencies: { httpx: '^0.27', rich: '^13.7' },
      dev_dependencies: { pytest: '^8.0' },
    });
    expect(summary('cfg-app')).toMatchObject({ name: 'cfg-app', dependencies: { click: '>=8', attrs: '*' } });
    expect(summary('py-app')).toMatchObject({
      name: 'py-app',
      version: '1.2',
      dependencies: { numpy: '>=1.26', pandas: '*' },
      notes: [expect.stringMatching(/setup\.py is read by pattern/)],
    });
    expect(summary('flask-app')).toMatchObject({
      dependencies: { flask: '>=3.0', requests: '==2.32.0', gunicorn: '==22.0.0' },
      entrypoints: ['app.py'],
    });
    expect(summary('go-server')).toMatchObject({
      name: 'example.com/go-server',
      dependencies: {
        'github.com/go-chi/chi/v5': 'v5.0.12',
        'golang.org/x/sync': 'v0.7.0',
        'github.com/google/uuid': 'v1.6.0',
      },
      entrypoints: ['cmd/server/main.go'],
    });
    expect(summary('rust-cli')).toMatchObject({
      dependencies: { clap: '4.5', serde: '1.0', local: 'path:../local' },
      dev_dependencies: { insta: '1.39' },
    });
  });

  it('writes under the given session, or the forager session', async () => {
    const hits = () => query({ query: 'webhook', example_name: 'stripe-webhook' });
    await fx.examples.scan(repo);
    expect((await hits()).every((h) => h.session_id === FORAGER_SESSION_ID && h.kind === 'foraged-pattern')).toBe(true);
  });

  it('finds nothing and writes nothing for a repository without examples/', async () => {
    const empty = fx.repo('empty');
    const before = fx.observations();
    expect((await fx.examples.scan(empty)).examples).toEqual([]);
    expect(fx.observations()).toBe(before);
    expect(await fx.ok('examples_list', { repo_root: empty })).toEqual([]);
  });
});

describe('examples_query', () => {
  beforeEach(async () => {
    await fx.examples.scan(repo);
  });

  it('answers compact foraged-pattern hits, best first', async () => {
    const hits = await query({ query: 'webhook signature' });
    expect(hits.length).toBeGreaterThan(0);
    for (const hit of hits) {
      expect(Object.keys(hit).sort()).toEqual(['id', 'kind', 'score', 'session_id', 'snippet', 'task_id', 'ts']);
      expect(hit.kind).toBe('foraged-pattern');
      expect(hit.snippet.length).toBeLessThanOrEqual(170);
    }
    expect(hits.map((h) => h.score)).toEqual([...hits.map((h) => h.score)].sort((a, b) => b - a));
    expect(bodies(hits).every((o) => o.metadata?.example_name === 'stripe-webhook')).toBe(true);
  });

  it('narrows to one example and never returns other kinds', async () => {
    const thread = await fx.ok<{ task_id: number }>('task_thread', {
      repo_root: repo,
      branch: 'main',
      session_id: 's1',
      agent: 'codex',
    });
    await fx.ok('task_post', {
      task_id: thread.task_id,
      session_id: 's1',
      kind: 'note',
      content: 'flask gunicorn deployment note',
    });
    const all = await query({ query: 'flask' });
    expect(all.length).toBeGreaterThan(0);
    expect(all.every((h) => h.kind === 'foraged-pattern')).toBe(true);
    expect(await query({ query: 'flask', example_name: 'go-server' })).toEqual([]);
    const go = await query({ query: 'chi router', example_name: 'go-server', limit: 2 });
    expect(go.length).toBeGreaterThan(0);
    expect(go.length).toBeLessThanOrEqual(2);
  });

  it('fills with any-term hits when every term matches too few', async () => {
    const hits = await query({ query: 'clap nonexistentterm', limit: 5 });
    expect(hits.length).toBeGreaterThan(0);
    expect(bodies(hits).every((o) => o.metadata?.example_name === 'rust-cli')).toBe(true);
  });
});

describe('examples_integrate_plan', () => {
  beforeEach(async () => {
    await fx.examples.scan(repo);
  });

  it('diffs an npm example against the root package.json', async () => {
    const p = await plan({ example_name: 'stripe-webhook' });
    expect(p.example_name).toBe('stripe-webhook');
    expect(p.dependency_delta).toEqual({
      add: { stripe: '^14.0.0', vitest: '^1.6.0', zod: '^3.23.0' },
      remove: ['lodash'],
    });
    expect(p.files_to_copy[0]).toEqual({
      from: 'examples/stripe-webhook/src/index.ts',
      to_suggestion: 'src/index.ts',
      rationale: 'entrypoint named by package.json',
    });
    const copied = p.files_to_copy.map((f) => f.from);
    expect(copied).toContain('examples/stripe-webhook/src/events.ts');
    expect(copied.some((f) => /test|logo|node_modules|package\.json/.test(f))).toBe(false);
    expect(p.config_steps).toEqual([
      'npm install stripe@^14.0.0 zod@^3.23.0',
      'npm install -D vitest@^1.6.0',
      'npm run build',
      'npm run test',
    ]);
    expect(p.uncertainty_notes).toEqual(['express: example wants ^4.19.0, target has ^4.18.0; check compatibility.']);
    expect(p.budget).toMatchObject({ items_returned: p.files_to_copy.length, hydrate_with: 'examples_query' });
  });

  it('reads target_hint relative to repo_root, absolute, or as a folder', async () => {
    const relative = await plan({ example_name: 'stripe-webhook', target_hint: 'apps/api/package.json' });
    expect(Object.keys(relative.dependency_delta.add)).toEqual(['express', 'typescript', 'vitest', 'zod']);
    expect(relative.dependency_delta.remove).toEqual([]);
    const absolute = await plan({ example_name: 'stripe-webhook', target_hint: join(repo, 'apps/api/package.json') });
    expect(absolute.dependency_delta).toEqual(relative.dependency_delta);
    const folder = await plan({ example_name: 'stripe-webhook', target_hint: 'apps/api' });
    expect(folder.dependency_delta).toEqual(relative.dependency_delta);
  });

  it('lists every dependency with a note when the target package.json is missing', async () => {
    const p = await plan({ example_name: 'stripe-webhook', target_hint: 'apps/web/package.json' });
    expect(Object.keys(p.dependency_delta.add)).toHaveLength(5);
    expect(p.uncertainty_notes[0]).toMatch(/apps\/web\/package\.json: not found/);
  });

  it.each([
    ['flask-app', 'pypi', 'pip install -e .'],
    ['rust-cli', 'cargo', 'cargo build'],
    ['go-server', 'go', 'go build ./...'],
  ])('gives a %s (%s) example no diff, an uncertainty note and its steps', async (name, kind, step) => {
    const p = await plan({ example_name: name });
    expect(p.dependency_delta).toEqual({ add: {}, remove: [] });
    expect(p.uncertainty_notes.join(' ')).toContain(`this is a ${kind} example`);
    expect(p.config_steps).toContain(step);
    expect(p.files_to_copy.length).toBeGreaterThan(0);
  });

  it('says an example without a manifest has unknown dependencies', async () => {
    const p = await plan({ example_name: 'plain-notes' });
    expect(p.dependency_delta).toEqual({ add: {}, remove: [] });
    expect(p.uncertainty_notes.join(' ')).toMatch(/no manifest/);
    expect(p.files_to_copy.map((f) => f.to_suggestion)).toEqual(['run.sh']);
  });

  it('refuses bad names, targets outside the repository and unknown examples, writing nothing', async () => {
    const before = fx.observations();
    for (const name of ['..', '.', 'a/b', '../repo', 'x\\y']) {
      expect((await fx.fail('examples_integrate_plan', { repo_root: repo, example_name: name })).code).toBe(
        'INVALID_PARAMETERS',
      );
      expect((await fx.fail('examples_query', { query: 'x', example_name: name })).code).toBe('INVALID_PARAMETERS');
    }
    for (const target of ['../outside/package.json', join(fx.dir, 'package.json'), '/etc/passwd']) {
      const error = await fx.fail('examples_integrate_plan', {
        repo_root: repo,
        example_name: 'stripe-webhook',
        target_hint: target,
      });
      expect(error.code).toBe('PATH_OUTSIDE_REPO');
    }
    symlinkSync(fx.dir, join(repo, 'up'));
    const viaLink = await fx.fail('examples_integrate_plan', {
      repo_root: repo,
      example_name: 'stripe-webhook',
      target_hint: 'up/package.json',
    });
    expect(viaLink.code).toBe('PATH_OUTSIDE_REPO');
    const missing = await fx.fail('examples_integrate_plan', { repo_root: repo, example_name: 'nope' });
    expect(missing).toMatchObject({ code: 'PATH_NOT_FOUND', example_name: 'nope' });
    expect((await fx.fail('examples_list', { repo_root: 'relative/path' })).code).toBe('INVALID_PARAMETERS');
    expect(fx.observations()).toBe(before);
  });
});

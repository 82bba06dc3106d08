/**
 * examples_list, examples_query and examples_integrate_plan over the real wire: a
 * repository with one example per manifest kind, indexed by `colony foraging scan`
 * run as its own process on the server's store, then read by a server process
 * through the MCP SDK client. Bad input (traversal names, targets outside the
 * repository, unknown examples, wrong types) answers a stable code and writes nothing.
 */
import { spawnSync } from 'node:child_process';
import { realpathSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { type ColonyStore, countObservations, listExamples } from '@swarm/storage';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exampleRepo } from '../../../packages/coordination/test/_examples-repo';
import { dbFor, openTestStore } from './_backend';
import { calls } from './_calls';
import { REPO_ROOT, type Server, startServer, tempDir } from './_harness';

const CLI = join(REPO_ROOT, 'apps/cli/dist/cli.js');

let server: Server;
let store: ColonyStore;
let dir: string;
let repo: string;

const snapshot = async () => ({
  observations: await countObservations(store),
  examples: await listExamples(store, repo),
});
const { ok, refused } = calls(() => server, snapshot);

beforeAll(async () => {
  dir = realpathSync(tempDir());
  repo = exampleRepo(dir);
  const db = join(dir, 'colony.db');
  const home = join(dir, 'home');
  const scan = spawnSync(
    process.execPath,
    [CLI, 'foraging', 'scan', '--repo-root', repo, '--json', '--db', dbFor(db)],
    {
      encoding: 'utf8',
      env: { ...process.env, COLONY_HOME: home },
    },
  );
  expect(scan.status, scan.stderr).toBe(0);
  server = await startServer({ db, home });
  store = await openTestStore(db);
}, 60_000);

afterAll(async () => {
  await server?.close();
  await store?.close();
});

describe('examples tools over MCP stdio', () => {
  it('examples_list answers the contract array', async () => {
    const entries = await ok('examples_list', { repo_root: repo });
    expect(Array.isArray(entries)).toBe(true);
    expect(
      entries.map((e: { example_name: string; manifest_kind: string }) => [e.example_name, e.manifest_kind]),
    ).toEqual([
      ['flask-app', 'pypi'],
      ['go-server', 'go'],
      ['plain-notes', 'unknown'],
      ['rust-cli', 'cargo'],
      ['stripe-webhook', 'npm'],
    ]);
    for (const e of entries) {
      expect(Object.keys(e).sort()).toEqual(['example_name', 'last_scanned_at', 'manifest_kind', 'observation_count']);
      expect(e.observation_count).toBeGreaterThan(0);
    }
    expect(await ok('examples_list', { repo_root: join(dir, 'nowhere') })).toEqual([]);
  });

  it('examples_query answers compact foraged-pattern hits, narrowed by example_name', async () => {
    const hits = await ok('examples_query', { query: 'webhook signature', example_name: 'stripe-webhook', limit: 10 });
    expect(hits.length).toBeGreaterThan(0);
    for (const hit of hits) {
      expect(Object.keys(hit).sort()).toEqual(['id', 'kind', 'score', 'session_id', 'snippet', 'task_id', 'ts']);
      expect(hit.kind).toBe('foraged-pattern');
    }
    const [body] = await ok('get_observations', { ids: [hits[0].id] });
    expect(body.metadata).toMatchObject({ example_name: 'stripe-webhook', manifest_kind: 'npm' });
    expect(await ok('examples_query', { query: 'webhook signature', example_name: 'rust-cli' })).toEqual([]);
  });

  it('examples_integrate_plan diffs an npm example against the target package.json', async () => {
    const plan = await ok('examples_integrate_plan', {
      repo_root: repo,
      example_name: 'stripe-webhook',
      target_hint: 'package.json',
    });
    expect(plan).toMatchObject({
      example_name: 'stripe-webhook',
      dependency_delta: { add: { stripe: '^14.0.0', vitest: '^1.6.0', zod: '^3.23.0' }, remove: ['lodash'] },
      config_steps: expect.arrayContaining(['npm run build', 'npm run test']),
    });
    expect(plan.files_to_copy[0]).toMatchObject({
      from: 'examples/stripe-webhook/src/index.ts',
      to_suggestion: 'src/index.ts',
    });
    expect(Object.keys(plan).sort()).toEqual(
      ['budget', 'config_steps', 'dependency_delta', 'example_name', 'files_to_copy', 'uncertainty_notes'].sort(),
    );
    const cargo = await ok('examples_integrate_plan', { repo_root: repo, example_name: 'rust-cli' });
    expect(cargo.dependency_delta).toEqual({ add: {}, remove: [] });
    expect(cargo.uncertainty_notes.join(' ')).toContain('cargo');
  });

  it('refuses traversal names, outside targets, unknown examples and wrong types, writing nothing', async () => {
    for (const name of ['..', '../../etc', 'a/b', 'a\\b']) {
      await refused('examples_integrate_plan', { repo_root: repo, example_name: name }, 'INVALID_PARAMETERS');
      await refused('examples_query', { query: 'x', example_name: name }, 'INVALID_PARAMETERS');
    }
    for (const target of ['../package.json', join(dir, 'package.json'), '/etc/hosts']) {
      await refused(
        'examples_integrate_plan',
        { repo_root: repo, example_name: 'stripe-webhook', target_hint: target },
        'PATH_OUTSIDE_REPO',
      );
    }
    symlinkSync(dir, join(repo, 'parent-link'));
    await refused(
      'examples_integrate_plan',
      { repo_root: repo, example_name: 'stripe-webhook', target_hint: 'parent-link/package.json' },
      'PATH_OUTSIDE_REPO',
    );
    const missing = await refused(
      'examples_integrate_plan',
      { repo_root: repo, example_name: 'no-such-example' },
      'PATH_NOT_FOUND',
    );
    expect(missing.example_name).toBe('no-such-example');
    await refused('examples_list', { repo_root: 'not/absolute' }, 'INVALID_PARAMETERS');
    await refused('examples_list', { repo_root: 42 }, 'INVALID_PARAMETERS');
    await refused('examples_query', { query: '', limit: 10 }, 'INVALID_PARAMETERS');
    await refused('examples_query', { query: 'x', limit: 0 }, 'INVALID_PARAMETERS');
    await refused('examples_integrate_plan', { repo_root: repo, example_name: 7, extra: 1 }, 'INVALID_PARAMETERS');
    await refused('examples_integrate_plan', { repo_root: '/', example_name: 'stripe-webhook' }, 'ROOT_NOT_ALLOWED');
  });
});

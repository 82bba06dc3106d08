/**
 * Proposals and OpenSpec specs over the real wire: a server process driven by the MCP
 * SDK client, its clock driven through COLONY_CLOCK_FILE so evaporation and staleness
 * run against the process. Every tool of the area and every code it documents; a
 * change archived cleanly and one refused on conflict. Refusals are checked to write
 * nothing, in the database file and in the repository.
 */
import { mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type ColonyStore, countObservations } from '@swarm/storage';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestStore } from './_backend';
import { type Server, setClock, startServer, tempDir } from './_harness';

const HOUR = 3_600_000;
const SPEC = `# Widgets

## §G Goal

Serve widgets.

## §V Invariants

| id | level | rule |
| --- | --- | --- |
| V.1 | must | widgets have ids |
| V.2 | always | no network in tests |
| V.3 | should | pages are cached |

## §T Tasks

| id | status | task | cites |
| --- | --- | --- | --- |
| T.5 | todo | cache pages | V.3 |
`;

let server: Server;
let store: ColonyStore;
let clockFile: string;
let dir: string;
let repo: string;
let now = Date.UTC(2026, 2, 1);

const advance = (ms: number) => {
  now += ms;
  setClock(clockFile, now);
};
const ok = async (tool: string, args: Record<string, unknown>) => {
  const result = await server.call(tool, args);
  if (result.isError) throw new Error(`${tool} failed: ${result.text}`);
  return result.payload;
};
/** Everything a refusal must leave alone: the store and the repository's files. */
const snapshot = async () => ({ observations: await countObservations(store), files: listFiles(repo) });
function listFiles(root: string): string[] {
  return readdirSync(root, { recursive: true, encoding: 'utf8' })
    .sort()
    .map((p) => `${p}:${safeRead(join(root, p))}`);
}
function safeRead(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '<dir>';
  }
}
async function refused(tool: string, args: Record<string, unknown>, code: string) {
  const before = await snapshot();
  const result = await server.call(tool, args);
  expect(result.isError, result.text).toBe(true);
  expect(result.payload).toMatchObject({ code, tool });
  expect(await snapshot()).toEqual(before);
  return result.payload;
}
const who = { session_id: 'claude-1', agent: 'claude' };

beforeAll(async () => {
  dir = tempDir();
  repo = join(dir, 'repo');
  mkdirSync(repo);
  writeFileSync(join(repo, 'SPEC.md'), SPEC);
  const db = join(dir, 'colony.db');
  clockFile = join(dir, 'clock');
  setClock(clockFile, now);
  server = await startServer({ db, home: dir, clockFile });
  for (const [session_id, agent] of [
    ['claude-1', 'claude'],
    ['claude-2', 'claude'],
    ['codex-1', 'codex'],
  ]) {
    await ok('task_thread', { repo_root: repo, branch: 'main', session_id, agent });
  }
  store = await openTestStore(db);
});

afterAll(async () => {
  await server?.close();
  await store?.close();
});

describe('proposals over stdio', () => {
  it('proposes, collapses repeats, weighs source diversity and promotes into a task', async () => {
    const proposed = await ok('task_propose', {
      repo_root: repo,
      branch: 'main',
      summary: 'Show promoted proposals in colony health',
      rationale: 'Health reports show task_propose stayed at 0.',
      touches_files: ['apps/cli/src/commands/health.ts'],
      session_id: 'claude-1',
    });
    expect(proposed).toEqual({ proposal_id: expect.any(Number), strength: 1, promotion_threshold: 2 });
    const id = proposed.proposal_id;
    expect(await ok('task_reinforce', { proposal_id: id, session_id: 'claude-1', kind: 'explicit' })).toMatchObject({
      strength: 1,
      promoted: false,
      task_id: null,
    });
    expect((await ok('task_reinforce', { proposal_id: id, session_id: 'claude-2', kind: 'adjacent' })).strength).toBe(
      1.15,
    );
    const promoted = await ok('task_reinforce', { proposal_id: id, session_id: 'codex-1', kind: 'rediscovered' });
    expect(promoted).toMatchObject({ proposal_id: id, strength: 2.65, promoted: true, task_id: expect.any(Number) });
    const report = await ok('task_foraging_report', { repo_root: repo, branch: 'main' });
    expect(report.promoted).toEqual([
      expect.objectContaining({ id, task_id: promoted.task_id, branch: `proposal/${id}` }),
    ]);
  });

  it('lets a pending proposal evaporate below the noise floor on the server clock', async () => {
    const { proposal_id } = await ok('task_propose', {
      repo_root: repo,
      branch: 'dev',
      summary: 'Fold the two CLI walkers',
      rationale: 'Duplicated.',
      session_id: 'codex-1',
    });
    const pending = async () =>
      (await ok('task_foraging_report', { repo_root: repo, branch: 'dev' })).pending.map(
        (p: { id: number; strength: number; reinforcement_count: number }) => [p.id, p.strength, p.reinforcement_count],
      );
    expect(await pending()).toEqual([[proposal_id, 1, 1]]);
    advance(7 * 24 * HOUR);
    expect(await pending()).toEqual([[proposal_id, 0.5, 1]]);
    advance(7 * 24 * HOUR + HOUR);
    expect(await pending()).toEqual([]);
  });

  it('refuses unknown proposals and sessions, paths outside the repo and bad kinds', async () => {
    await refused(
      'task_reinforce',
      { proposal_id: 9999, session_id: 'claude-1', kind: 'explicit' },
      'PROPOSAL_NOT_FOUND',
    );
    await refused('task_reinforce', { proposal_id: 9999, session_id: 'ghost', kind: 'explicit' }, 'PROPOSAL_NOT_FOUND');
    await refused('task_reinforce', { proposal_id: 1, session_id: 'claude-1', kind: 'loud' }, 'INVALID_PARAMETERS');
    const base = { repo_root: repo, branch: 'main', summary: 's', rationale: 'r', session_id: 'claude-1' };
    await refused('task_propose', { ...base, touches_files: ['/etc/passwd'] }, 'PATH_OUTSIDE_REPO');
    await refused(
      'task_propose',
      { ...base, session_id: 'ghost', touches_files: ['/etc/passwd'] },
      'PATH_OUTSIDE_REPO',
    );
    await refused('task_propose', { ...base, rationale: 'x'.repeat(2001) }, 'INVALID_PARAMETERS');
  });
});

describe('specs over stdio', () => {
  it('reads the spec and resolves a task context', async () => {
    const read = await ok('spec_read', { repo_root: repo });
    expect(read.alwaysInvariants).toEqual([{ id: 'V.2', rule: 'no network in tests' }]);
    expect(read.rootHash).toMatch(/^[0-9a-f]{64}$/);
    const context = await ok('spec_build_context', { repo_root: repo, task_id: 'T5' });
    expect(context).toMatchObject({ task_id: 'T.5', cited_ids: ['V.3'], always_invariants: [{ id: 'V.2' }] });
    await refused('spec_build_context', { repo_root: repo, task_id: 'T6' }, 'SPEC_TASK_NOT_FOUND');
    const bare = join(dir, 'bare');
    mkdirSync(bare);
    await refused('spec_read', { repo_root: bare }, 'SPEC_NOT_FOUND');
    await refused('spec_build_context', { repo_root: bare, task_id: 'T5' }, 'SPEC_NOT_FOUND');
  });

  it('opens a change, adds deltas and archives it cleanly', async () => {
    const read = await ok('spec_read', { repo_root: repo });
    const opened = await ok('spec_change_open', {
      repo_root: repo,
      slug: 'strict-ids',
      ...who,
      proposal: 'Ids are uuids.',
    });
    expect(opened).toEqual({
      task_id: expect.any(Number),
      path: join(repo, 'openspec/changes/strict-ids/CHANGE.md'),
      base_root_hash: read.rootHash,
    });
    const delta = (op: string, target: string, row_cells: string[] = []) =>
      ok('spec_change_add_delta', {
        repo_root: repo,
        slug: 'strict-ids',
        session_id: 'claude-1',
        op,
        target,
        row_cells,
      });
    expect(await delta('modify', 'V.1', ['must', 'widget ids are uuids'])).toEqual({ delta_count: 1 });
    expect(await delta('add', 'T6', ['todo', 'migrate ids', 'V.1'])).toEqual({ delta_count: 2 });
    const failure = await ok('spec_build_record_failure', {
      repo_root: repo,
      slug: 'strict-ids',
      ...who,
      test_id: 'test/ids.test.ts:3',
      error: 'Expected uuid, got 42',
      promote_after: 1,
    });
    expect(failure).toMatchObject({ action: 'promoted', match_count: 1, proposal_id: expect.any(Number) });
    writeFileSync(join(repo, 'SPEC.md'), SPEC.replace('Serve widgets.', 'Serve widgets, fast.'));
    const archived = await ok('spec_archive', {
      repo_root: repo,
      slug: 'strict-ids',
      ...who,
      strategy: 'refuse_on_conflict',
    });
    expect(archived).toMatchObject({
      status: 'archived',
      archived_path: join(repo, `openspec/archive/${new Date(now).toISOString().slice(0, 10)}-strict-ids`),
      conflicts: [],
      applied: 3,
    });
    const root = readFileSync(join(repo, 'SPEC.md'), 'utf8');
    expect(root).toContain('Serve widgets, fast.');
    expect(root).toContain('| V.1 | must | widget ids are uuids |');
    expect(root).toContain('| T.6 | todo | migrate ids | V.1 |');
    expect(root).toMatch(
      /## §B Failures\n\n\| id \| signature \| test_id \| count \| summary \|\n\| --- .*\n\| B\.1 \| [0-9a-f]{12} \| test\/ids\.test\.ts:3 \| 1 \| Expected uuid, got 42 \|/,
    );
    expect((await ok('spec_read', { repo_root: repo })).rootHash).toBe(archived.merged_root_hash);
    expect((await ok('openspec_sync_status', { repo_root: repo })).drift).toEqual([]);
  });

  it('refuses on conflict with isError, status refused and the conflict set; three_way answers conflict', async () => {
    await ok('spec_change_open', { repo_root: repo, slug: 'cache-longer', ...who, proposal: 'Cache for an hour.' });
    await ok('spec_change_add_delta', {
      repo_root: repo,
      slug: 'cache-longer',
      session_id: 'claude-1',
      op: 'modify',
      target: 'V.3',
      row_cells: ['must', 'pages are cached for an hour'],
    });
    const root = readFileSync(join(repo, 'SPEC.md'), 'utf8');
    writeFileSync(
      join(repo, 'SPEC.md'),
      root.replace('| V.3 | should | pages are cached |', '| V.3 | should | pages are cached for a day |'),
    );
    const args = { repo_root: repo, slug: 'cache-longer', ...who };
    const error = await refused('spec_archive', { ...args, strategy: 'refuse_on_conflict' }, 'SPEC_ARCHIVE_CONFLICT');
    expect(error).toMatchObject({
      status: 'refused',
      archived_path: null,
      merged_root_hash: null,
      applied: 0,
      conflicts: [
        {
          ids: ['V.3'],
          base: ['| V.3 | should | pages are cached |'],
          change: ['| V.3 | must | pages are cached for an hour |'],
          root: ['| V.3 | should | pages are cached for a day |'],
        },
      ],
    });
    const before = await snapshot();
    const threeWay = await server.call('spec_archive', { ...args, strategy: 'three_way' });
    expect(threeWay.isError).toBe(false);
    expect(threeWay.payload).toMatchObject({
      status: 'conflict',
      conflicts: [expect.objectContaining({ ids: ['V.3'] })],
    });
    expect(await snapshot()).toEqual(before);
    const stale = await ok('openspec_sync_status', { repo_root: repo });
    expect(stale.drift.map((d: { kind: string }) => d.kind)).toEqual(['base_moved']);
    advance(25 * HOUR);
    const later = await ok('openspec_sync_status', { repo_root: repo, stale_after_hours: 24 });
    expect(later.drift.map((d: { kind: string; repair: { tool: string } }) => [d.kind, d.repair.tool])).toEqual([
      ['base_moved', 'spec_archive'],
      ['stale_change', 'spec_archive'],
    ]);
    const forced = await ok('spec_archive', { ...args, strategy: 'last_writer_wins' });
    expect(forced).toMatchObject({ status: 'archived', applied: 1 });
    expect(readFileSync(join(repo, 'SPEC.md'), 'utf8')).toContain('| V.3 | must | pages are cached for an hour |');
  });

  it('answers every documented refusal and writes nothing', async () => {
    await ok('spec_change_open', { repo_root: repo, slug: 'open-one', ...who, proposal: 'p' });
    const add = { repo_root: repo, slug: 'open-one', session_id: 'claude-1' };
    await refused(
      'spec_change_open',
      { repo_root: repo, slug: 'open-one', ...who, proposal: 'p' },
      'SPEC_CHANGE_EXISTS',
    );
    await refused(
      'spec_change_open',
      { repo_root: repo, slug: 'Not Kebab', ...who, proposal: 'p' },
      'INVALID_PARAMETERS',
    );
    await refused(
      'spec_change_add_delta',
      { ...add, op: 'add', target: 'V.1', row_cells: ['must', 'x'] },
      'SPEC_ROW_EXISTS',
    );
    await refused('spec_change_add_delta', { ...add, op: 'remove', target: 'T.99' }, 'SPEC_ROW_NOT_FOUND');
    await refused(
      'spec_change_add_delta',
      { ...add, slug: 'missing', op: 'remove', target: 'T.5' },
      'SPEC_CHANGE_NOT_FOUND',
    );
    await refused(
      'spec_change_add_delta',
      { ...add, session_id: 'codex-1', op: 'remove', target: 'T.5' },
      'NOT_PARTICIPANT',
    );
    await refused(
      'spec_change_add_delta',
      { ...add, session_id: 'ghost', op: 'remove', target: 'T.5' },
      'NOT_PARTICIPANT',
    );
    await refused('spec_archive', { repo_root: repo, slug: 'missing', ...who }, 'SPEC_CHANGE_NOT_FOUND');
    await refused(
      'spec_build_record_failure',
      { repo_root: repo, slug: 'missing', ...who, test_id: 't', error: 'e' },
      'SPEC_CHANGE_NOT_FOUND',
    );
    const linked = join(dir, 'linked');
    mkdirSync(linked);
    mkdirSync(join(dir, 'outside'));
    symlinkSync(join(dir, 'outside'), join(linked, 'openspec'));
    await refused(
      'spec_change_open',
      { repo_root: linked, slug: 'escape', ...who, proposal: 'p' },
      'PATH_OUTSIDE_REPO',
    );
    expect(readdirSync(join(dir, 'outside'))).toEqual([]);
    // A change that sits behind a symlink leading out of the repository is never touched.
    mkdirSync(join(dir, 'outside/changes/escape'), { recursive: true });
    writeFileSync(join(dir, 'outside/changes/escape/CHANGE.md'), '# Change: escape\n\n## Deltas\n');
    const behind = { repo_root: linked, slug: 'escape' };
    await refused(
      'spec_change_add_delta',
      { ...behind, session_id: 'claude-1', op: 'remove', target: 'V.1' },
      'PATH_OUTSIDE_REPO',
    );
    await refused('spec_archive', { ...behind, ...who }, 'PATH_OUTSIDE_REPO');
    await refused('spec_build_record_failure', { ...behind, ...who, test_id: 't', error: 'e' }, 'PATH_OUTSIDE_REPO');
  });

  it('refuses to archive a hand-edited change whose deltas no longer fit its base', async () => {
    await ok('spec_change_open', { repo_root: repo, slug: 'hand-edited', ...who, proposal: 'p' });
    const file = join(repo, 'openspec/changes/hand-edited/CHANGE.md');
    writeFileSync(file, `${readFileSync(file, 'utf8')}| modify | V.42 | ["must","x"] |\n`);
    await refused('spec_archive', { repo_root: repo, slug: 'hand-edited', ...who }, 'SPEC_ROW_NOT_FOUND');
    writeFileSync(file, readFileSync(file, 'utf8').replace('| modify | V.42 |', '| add | V.1 |'));
    await refused('spec_archive', { repo_root: repo, slug: 'hand-edited', ...who }, 'SPEC_ROW_EXISTS');
  });
});

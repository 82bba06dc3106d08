/**
 * Spec changes through the tool registry: spec_change_open (CHANGE.md, base copy,
 * spec/<slug> thread), spec_change_add_delta, and spec_archive merging cleanly,
 * meeting conflicts under each strategy, and landing both files or neither.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SpecFileOps } from '../src/index';
import { nodeFileOps } from '../src/specs/spec-files';
import { rootHash } from '../src/specs/spec-format';
import { createFixture, type Fixture } from './_fixture';
import { SAMPLE_SPEC, specRepo } from './_specs';

let f: Fixture;
let repo: string;

beforeEach(() => {
  f = createFixture();
  repo = specRepo(f);
});
afterEach(() => f.close());

const slug = 'cache-pages';
const open = (extra: Record<string, unknown> = {}) =>
  f.ok<{ task_id: number; path: string; base_root_hash: string }>('spec_change_open', {
    repo_root: repo,
    slug,
    session_id: 'sess_a',
    agent: 'claude',
    proposal: 'Cache every page.',
    ...extra,
  });
const delta = (op: string, target: string, row_cells: string[] = [], session_id = 'sess_a') =>
  f.ok<{ delta_count: number }>('spec_change_add_delta', { repo_root: repo, slug, session_id, op, target, row_cells });
const archive = (strategy: string) =>
  ({ repo_root: repo, slug, session_id: 'sess_a', agent: 'claude', strategy }) as Record<string, unknown>;
const root = () => readFileSync(join(repo, 'SPEC.md'), 'utf8');
const changeDir = join('openspec', 'changes', slug);

describe('spec_change_open', () => {
  it('creates CHANGE.md and base.SPEC.md and joins the caller to spec/<slug>', async () => {
    const opened = await open();
    expect(opened.base_root_hash).toBe(rootHash(SAMPLE_SPEC));
    expect(opened.path).toBe(join(repo, changeDir, 'CHANGE.md'));
    expect(readFileSync(join(repo, changeDir, 'base.SPEC.md'), 'utf8')).toBe(SAMPLE_SPEC);
    const change = readFileSync(opened.path, 'utf8');
    expect(change).toContain(`- base_root_hash: ${opened.base_root_hash}`);
    expect(change).toContain('## Proposal\n\nCache every page.');
    const threads = await f.ok<{ tasks: Array<{ id: number; branch: string; participants: unknown[] }> }>('task_list', {
      repo_root: repo,
    });
    expect(threads.tasks).toEqual([
      expect.objectContaining({
        id: opened.task_id,
        branch: 'spec/cache-pages',
        participants: [{ session_id: 'sess_a', agent: 'claude' }],
      }),
    ]);
  });

  it('opens on a repository without SPEC.md with an empty base', async () => {
    repo = specRepo(f, 'bare', null);
    expect((await open()).base_root_hash).toBe(rootHash(''));
  });

  it('refuses an open change, a bad slug, a missing repo_root and an openspec folder linked outside', async () => {
    await open();
    const before = f.observations();
    expect((await f.fail('spec_change_open', { ...base(), slug })).code).toBe('SPEC_CHANGE_EXISTS');
    expect((await f.fail('spec_change_open', { ...base(), slug: '../escape' })).code).toBe('INVALID_PARAMETERS');
    expect((await f.fail('spec_change_open', { ...base(), slug: 'Bad_Slug' })).code).toBe('INVALID_PARAMETERS');
    expect((await f.fail('spec_change_open', { ...base(), repo_root: join(repo, 'nope') })).code).toBe(
      'INVALID_PARAMETERS',
    );
    const linked = specRepo(f, 'linked');
    const outside = f.repo('elsewhere');
    symlinkSync(outside, join(linked, 'openspec'));
    expect((await f.fail('spec_change_open', { ...base(), repo_root: linked })).code).toBe('PATH_OUTSIDE_REPO');
    expect(readdirSync(outside)).toEqual([]);
    expect(f.observations()).toBe(before);
  });
});

function base() {
  return { repo_root: repo, slug, session_id: 'sess_a', agent: 'claude', proposal: 'x' };
}

describe('spec_change_add_delta', () => {
  it('appends delta rows and answers the running total', async () => {
    await open();
    expect(await delta('modify', 'V3', ['must', 'pages are cached'])).toEqual({ delta_count: 1 });
    expect(await delta('add', 'T.6', ['todo', 'purge cache', 'V.3'])).toEqual({ delta_count: 2 });
    expect(await delta('remove', 'T.1')).toEqual({ delta_count: 3 });
    const text = readFileSync(join(repo, changeDir, 'CHANGE.md'), 'utf8');
    expect(text).toContain('| modify | V.3 | ["must","pages are cached"] |');
    expect(text).toContain('| remove | T.1 | [] |');
  });

  it('refuses rows that do not fit the base, unknown changes and sessions that have not joined; nothing written', async () => {
    await open();
    await delta('add', 'V.4', ['must', 'x']);
    await f.ok('task_thread', { repo_root: repo, branch: 'main', session_id: 'sess_b', agent: 'codex' });
    const file = join(repo, changeDir, 'CHANGE.md');
    const text = readFileSync(file, 'utf8');
    const before = f.observations();
    const fail = async (args: Record<string, unknown>) =>
      (await f.fail('spec_change_add_delta', { repo_root: repo, slug, session_id: 'sess_a', ...args })).code;
    expect(await fail({ op: 'add', target: 'V.1', row_cells: ['must', 'x'] })).toBe('SPEC_ROW_EXISTS');
    expect(await fail({ op: 'add', target: 'V.4', row_cells: ['must', 'again'] })).toBe('SPEC_ROW_EXISTS');
    expect(await fail({ op: 'modify', target: 'T.9', row_cells: ['todo', 'x', ''] })).toBe('SPEC_ROW_NOT_FOUND');
    expect(await fail({ op: 'modify', target: 'T.1', row_cells: ['todo'] })).toBe('INVALID_PARAMETERS');
    expect(await fail({ op: 'add', target: 'G.1', row_cells: ['x'] })).toBe('INVALID_PARAMETERS');
    expect(await fail({ op: 'add', target: 'V.5', row_cells: ['maybe', 'x'] })).toBe('INVALID_PARAMETERS');
    expect(await fail({ slug: 'other', op: 'remove', target: 'T.1' })).toBe('SPEC_CHANGE_NOT_FOUND');
    expect(await fail({ session_id: 'sess_b', op: 'remove', target: 'T.1' })).toBe('NOT_PARTICIPANT');
    expect(await fail({ session_id: 'ghost', op: 'remove', target: 'T.1' })).toBe('NOT_PARTICIPANT');
    expect(readFileSync(file, 'utf8')).toBe(text);
    expect(f.observations()).toBe(before);
  });
});

describe('spec_archive', () => {
  it('merges a change into a root that moved elsewhere and archives it', async () => {
    await open();
    await delta('modify', 'V.3', ['must', 'pages are cached']);
    await delta('add', 'T.6', ['todo', 'purge cache', 'V.3']);
    writeFileSync(join(repo, 'SPEC.md'), SAMPLE_SPEC.replace('Serve widgets.', 'Serve widgets fast.'));
    const result = await f.ok<Record<string, unknown>>('spec_archive', archive('refuse_on_conflict'));
    const archived = join(repo, 'openspec', 'archive', `2026-01-01-${slug}`);
    expect(result).toEqual({
      status: 'archived',
      archived_path: archived,
      merged_root_hash: rootHash(root()),
      conflicts: [],
      applied: 2,
    });
    expect(root()).toContain('Serve widgets fast.');
    expect(root()).toContain('| V.3 | must | pages are cached |');
    expect(root()).toContain('| T.6 | todo | purge cache | V.3 |');
    expect(existsSync(join(repo, changeDir))).toBe(false);
    expect(readdirSync(archived).sort()).toEqual(['CHANGE.md', 'base.SPEC.md']);
    expect(readdirSync(repo).sort()).toEqual(['SPEC.md', 'openspec']);
  });

  it('lands two changes opened on the same base one after the other', async () => {
    await open();
    await delta('modify', 'V.3', ['must', 'pages are cached']);
    await f.ok('spec_change_open', { ...base(), slug: 'drop-t1' });
    await f.ok('spec_change_add_delta', {
      repo_root: repo,
      slug: 'drop-t1',
      session_id: 'sess_a',
      op: 'add',
      target: 'V.4',
      row_cells: ['always', 'log every request'],
    });
    await f.ok('spec_archive', archive('three_way'));
    const second = await f.ok<{ status: string }>('spec_archive', { ...archive('three_way'), slug: 'drop-t1' });
    expect(second.status).toBe('archived');
    expect(root()).toContain('| V.3 | must | pages are cached |');
    expect(root()).toContain('| V.4 | always | log every request |');
  });

  describe('when the root changed the same row', () => {
    const moved = SAMPLE_SPEC.replace('| V.3 | should | pages are cached |', '| V.3 | should | pages are cached 1m |');

    beforeEach(async () => {
      await open();
      await delta('modify', 'V.3', ['must', 'pages are cached']);
      writeFileSync(join(repo, 'SPEC.md'), moved);
    });

    it('three_way answers conflict and writes nothing', async () => {
      const before = f.observations();
      const result = await f.ok<{ status: string; conflicts: Array<{ ids: string[] }> }>(
        'spec_archive',
        archive('three_way'),
      );
      expect(result).toMatchObject({ status: 'conflict', archived_path: null, merged_root_hash: null, applied: 0 });
      expect(result.conflicts).toEqual([
        {
          line: 17,
          ids: ['V.3'],
          base: ['| V.3 | should | pages are cached |'],
          change: ['| V.3 | must | pages are cached |'],
          root: ['| V.3 | should | pages are cached 1m |'],
        },
      ]);
      expect(root()).toBe(moved);
      expect(existsSync(join(repo, changeDir, 'CHANGE.md'))).toBe(true);
      expect(f.observations()).toBe(before);
    });

    it('refuse_on_conflict is an error carrying status refused and the conflict set', async () => {
      const before = f.observations();
      const error = await f.fail('spec_archive', archive('refuse_on_conflict'));
      expect(error).toMatchObject({
        code: 'SPEC_ARCHIVE_CONFLICT',
        status: 'refused',
        archived_path: null,
        merged_root_hash: null,
        applied: 0,
        conflicts: [expect.objectContaining({ ids: ['V.3'] })],
      });
      expect(root()).toBe(moved);
      expect(existsSync(join(repo, 'openspec', 'archive'))).toBe(false);
      expect(f.observations()).toBe(before);
    });

    it('last_writer_wins takes the change side and lists what it overrode', async () => {
      const result = await f.ok<{ status: string; conflicts: unknown[] }>('spec_archive', archive('last_writer_wins'));
      expect(result.status).toBe('archived');
      expect(result.conflicts).toHaveLength(1);
      expect(root()).toContain('| V.3 | must | pages are cached |');
      expect(root()).not.toContain('cached 1m');
    });
  });

  it('refuses an unknown change', async () => {
    expect((await f.fail('spec_archive', archive('three_way'))).code).toBe('SPEC_CHANGE_NOT_FOUND');
  });
});

describe('spec_archive atomicity', () => {
  /** node:fs, except that renaming onto `failOn` throws. */
  const failingRename = (failOn: (to: string) => boolean): SpecFileOps => ({
    ...nodeFileOps,
    rename: (from, to) => {
      if (failOn(to)) throw new Error(`injected failure renaming onto ${to}`);
      nodeFileOps.rename(from, to);
    },
  });

  for (const [step, failOn] of [
    ['the root write', (to: string) => to.endsWith('/SPEC.md')],
    ['the move to the archive', (to: string) => to.includes('/openspec/archive/')],
  ] as const) {
    it(`leaves the root, the change and the store as they were when ${step} fails`, async () => {
      f.close();
      f = createFixture(undefined, { specFs: failingRename(failOn) });
      repo = specRepo(f);
      await open();
      await delta('modify', 'V.3', ['must', 'pages are cached']);
      const change = readFileSync(join(repo, changeDir, 'CHANGE.md'), 'utf8');
      const before = f.observations();
      const error = await f.fail('spec_archive', archive('three_way'));
      expect(error.code).toBe('INTERNAL_ERROR');
      expect(error.error).toMatch(/injected failure/);
      expect(root()).toBe(SAMPLE_SPEC);
      expect(readFileSync(join(repo, changeDir, 'CHANGE.md'), 'utf8')).toBe(change);
      expect(readdirSync(join(repo, 'openspec', 'archive'))).toEqual([]);
      expect(readdirSync(repo).sort()).toEqual(['SPEC.md', 'openspec']);
      expect(f.observations()).toBe(before);
    });
  }

  it('never leaves a change folder half-created when its files cannot be written', async () => {
    f.close();
    f = createFixture(undefined, {
      specFs: { ...nodeFileOps, writeFile: () => mkdirSync('/proc/colony-cannot-write') },
    });
    repo = specRepo(f);
    const before = f.observations();
    expect((await f.fail('spec_change_open', base())).code).toBe('INTERNAL_ERROR');
    expect(existsSync(join(repo, changeDir))).toBe(false);
    expect(f.observations()).toBe(before);
  });
});

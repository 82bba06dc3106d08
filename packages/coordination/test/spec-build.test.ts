/**
 * Reading and building against a spec: spec_read, spec_build_context,
 * spec_build_record_failure (signature, §B delta, promotion to a proposal),
 * openspec_sync_status, and the plan auto-archive outcomes.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { failureSignature } from '../src/specs/spec-failures';
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

const who = { session_id: 'sess_a', agent: 'claude' };
const openChange = (slug: string) =>
  f.ok('spec_change_open', { repo_root: repo, slug, ...who, proposal: `do ${slug}` });

describe('spec_read', () => {
  it('answers the root hash, raw sections with row counts, and the always invariants', async () => {
    const read = await f.ok<Record<string, unknown>>('spec_read', { repo_root: repo });
    expect(read.rootHash).toBe(rootHash(SAMPLE_SPEC));
    expect(read.title).toBe('Widgets');
    expect(read.alwaysInvariants).toEqual([{ id: 'V.2', rule: 'no network in tests' }]);
    expect(read.sections).toEqual([
      { id: 'G', heading: '§G Goal', body: '\nServe widgets.\n' },
      { id: 'C', heading: '§C Constraints', body: '\n- Node 20 only.\n' },
      expect.objectContaining({ id: 'V', heading: '§V Invariants', row_count: 3 }),
      expect.objectContaining({ id: 'T', row_count: 2 }),
      expect.objectContaining({ id: 'B', row_count: 0 }),
    ]);
  });

  it('refuses a repository without SPEC.md', async () => {
    expect((await f.fail('spec_read', { repo_root: f.repo('empty') })).code).toBe('SPEC_NOT_FOUND');
  });
});

describe('spec_build_context', () => {
  it('resolves only the rows a task cites plus the always invariants', async () => {
    const context = await f.ok<Record<string, unknown>>('spec_build_context', { repo_root: repo, task_id: 'T5' });
    expect(context).toMatchObject({
      task_id: 'T.5',
      cited_ids: ['V.3', 'V.1'],
      always_invariants: [{ id: 'V.2', rule: 'no network in tests' }],
    });
    expect(context.rendered).toBe(
      [
        '## T.5 cache pages (todo)',
        '',
        '### Cited',
        '',
        '| V.3 | should | pages are cached |',
        '| V.1 | must | widgets have ids |',
        '',
        '### Always',
        '',
        '| V.2 | always | no network in tests |',
        '',
      ].join('\n'),
    );
    expect(context.rendered).not.toContain('Serve widgets');
  });

  it('answers "no task <id>" for a missing task', async () => {
    const error = await f.fail('spec_build_context', { repo_root: repo, task_id: 'T9' });
    expect(error).toMatchObject({ code: 'SPEC_TASK_NOT_FOUND', error: 'no task T9' });
    expect((await f.fail('spec_build_context', { repo_root: repo, task_id: 'V1' })).code).toBe('SPEC_TASK_NOT_FOUND');
    expect((await f.fail('spec_build_context', { repo_root: repo, task_id: 'nine' })).code).toBe('INVALID_PARAMETERS');
  });
});

describe('spec_build_record_failure', () => {
  const failure = (extra: Record<string, unknown> = {}) =>
    f.ok<Record<string, unknown>>('spec_build_record_failure', {
      repo_root: repo,
      slug: 'batch-size',
      ...who,
      test_id: 'test/batch.test.ts:14',
      error: 'Expected 16 but got 1 in /tmp/run-123/x.ts',
      error_summary: 'batchSize ignored when provider=local',
      ...extra,
    });

  beforeEach(async () => {
    await openChange('batch-size');
    mkdirSync(join(repo, 'test'));
    writeFileSync(join(repo, 'test', 'batch.test.ts'), '');
  });

  it('logs, then promotes at promote_after, then reports duplicates of the same signature', async () => {
    const signature = failureSignature('test/batch.test.ts:14', 'Expected 16 but got 1 in /tmp/run-123/x.ts');
    expect(await failure()).toEqual({ action: 'logged', signature_hash: signature, match_count: 1, proposal_id: null });
    // Numbers and paths differ from run to run; the signature does not.
    const second = await failure({ error: 'Expected 32 but got 2 in /tmp/run-456/x.ts' });
    expect(second).toMatchObject({ action: 'logged', signature_hash: signature, match_count: 2 });
    const third = await failure();
    expect(third).toMatchObject({ action: 'promoted', match_count: 3, proposal_id: expect.any(Number) });
    expect(await failure()).toMatchObject({ action: 'duplicate', match_count: 4, proposal_id: third.proposal_id });
    const report = await f.ok<{ pending: Array<Record<string, unknown>> }>('task_foraging_report', {
      repo_root: repo,
      branch: 'spec/batch-size',
    });
    expect(report.pending).toEqual([
      expect.objectContaining({
        id: third.proposal_id,
        summary: 'Invariant: batchSize ignored when provider=local',
        touches_files: ['test/batch.test.ts'],
      }),
    ]);
    const change = readFileSync(join(repo, 'openspec/changes/batch-size/CHANGE.md'), 'utf8');
    expect(change.match(/^\| add \| B\.1 \|.*$/gm)).toEqual([
      `| add | B.1 | ["${signature.slice(0, 12)}","test/batch.test.ts:14","4","batchSize ignored when provider=local"] |`,
    ]);
  });

  it('gives each signature its own §B row, landing in SPEC.md on archive', async () => {
    await failure();
    await failure({ test_id: 'test/other.test.ts:3', error: 'boom', error_summary: undefined });
    await f.ok('spec_archive', { repo_root: repo, slug: 'batch-size', ...who });
    const root = readFileSync(join(repo, 'SPEC.md'), 'utf8');
    expect(root).toMatch(/\| B\.1 \| [0-9a-f]{12} \| test\/batch\.test\.ts:14 \| 1 \| batchSize ignored/);
    expect(root).toMatch(/\| B\.2 \| [0-9a-f]{12} \| test\/other\.test\.ts:3 \| 1 \| boom \|/);
  });

  it('refuses an unknown change, writing nothing', async () => {
    const before = f.observations();
    const error = await f.fail('spec_build_record_failure', {
      repo_root: repo,
      slug: 'nope',
      ...who,
      test_id: 't',
      error: 'e',
    });
    expect(error.code).toBe('SPEC_CHANGE_NOT_FOUND');
    expect(f.observations()).toBe(before);
  });
});

describe('openspec_sync_status', () => {
  const status = (extra: Record<string, unknown> = {}) =>
    f.ok<{ drift: Array<{ kind: string; slug: string; repair: { tool: string } | null }>; total: number }>(
      'openspec_sync_status',
      { repo_root: repo, ...extra },
    );

  it('is quiet for a fresh change and reports each kind of drift with its repair', async () => {
    await openChange('fresh');
    expect((await status()).drift).toEqual([]);

    await openChange('moved');
    writeFileSync(join(repo, 'SPEC.md'), `${SAMPLE_SPEC}\n`);
    mkdirSync(join(repo, 'openspec/changes/broken'));
    mkdirSync(join(repo, 'openspec/changes/no-thread'));
    writeFileSync(
      join(repo, 'openspec/changes/no-thread/CHANGE.md'),
      readFileSync(join(repo, 'openspec/changes/fresh/CHANGE.md'), 'utf8').replace(
        '# Change: fresh',
        '# Change: no-thread',
      ),
    );
    await openChange('gone');
    rmSync(join(repo, 'openspec/changes/gone'), { recursive: true });
    mkdirSync(join(repo, 'openspec/archive/2025-12-01-by-hand'), { recursive: true });
    writeFileSync(
      join(repo, 'openspec/archive/2025-12-01-by-hand/CHANGE.md'),
      '# Change: by-hand\n\n- [ ] tests\n- [x] docs\n',
    );

    const drift = (await status()).drift.map((d) => [d.kind, d.slug, d.repair?.tool ?? null]);
    expect(drift).toEqual([
      ['broken_change', 'broken', null],
      ['change_without_task', 'no-thread', 'task_thread'],
      ['task_without_change', 'gone', 'spec_change_open'],
      ['archive_unrecorded', 'by-hand', null],
      ['stale_checkbox', 'by-hand', null],
      ['base_moved', 'fresh', 'spec_archive'],
      ['base_moved', 'moved', 'spec_archive'],
      ['base_moved', 'no-thread', 'spec_archive'],
    ]);
    const limited = await f.ok<{ drift: unknown[]; total: number; truncated: boolean }>('openspec_sync_status', {
      repo_root: repo,
      limit: 2,
    });
    expect(limited).toMatchObject({ total: 8, truncated: true });
    expect(limited.drift).toHaveLength(2);
  });

  it('reports a change whose thread has been idle past stale_after_hours', async () => {
    await openChange('idle');
    f.clock.advance(25 * 3_600_000);
    expect((await status()).drift.map((d) => d.kind)).toEqual(['stale_change']);
    expect((await status({ stale_after_hours: 48 })).drift).toEqual([]);
  });

  it('does not report a change archived through spec_archive', async () => {
    await openChange('done');
    await f.ok('spec_archive', { repo_root: repo, slug: 'done', ...who });
    expect((await status()).drift).toEqual([]);
  });
});

describe('SpecService.autoArchive', () => {
  const opts = () => ({ repoRoot: repo, slug: 'plan-x', sessionId: 'sess_a', agent: 'claude' });
  const kinds = async () => {
    const list = await f.ok<{ tasks: Array<{ id: number }> }>('task_list', { repo_root: repo, branch: 'spec/plan-x' });
    const timeline = await f.ok<Array<{ kind: string }>>('task_timeline', { task_id: list.tasks[0]?.id });
    return timeline.map((t) => t.kind);
  };

  it('archives a clean change and records plan-archived', async () => {
    await openChange('plan-x');
    await f.ok('spec_change_add_delta', {
      repo_root: repo,
      slug: 'plan-x',
      session_id: 'sess_a',
      op: 'modify',
      target: 'T.5',
      row_cells: ['done', 'cache pages', 'V.3, V.1'],
    });
    const outcome = await f.specs.autoArchive(opts());
    expect(outcome).toMatchObject({ status: 'archived', applied: 1, archived_path: expect.stringContaining('plan-x') });
    expect((await kinds())[0]).toBe('plan-archived');
  });

  it('is blocked by conflicts (the change stays open) and records plan-archive-blocked', async () => {
    await openChange('plan-x');
    await f.ok('spec_change_add_delta', {
      repo_root: repo,
      slug: 'plan-x',
      session_id: 'sess_a',
      op: 'remove',
      target: 'T.5',
    });
    writeFileSync(join(repo, 'SPEC.md'), SAMPLE_SPEC.replace('| T.5 | todo |', '| T.5 | doing |'));
    const outcome = await f.specs.autoArchive(opts());
    expect(outcome).toMatchObject({ status: 'blocked', conflicts: [expect.objectContaining({ ids: ['T.5'] })] });
    expect((await kinds())[0]).toBe('plan-archive-blocked');
    expect(readFileSync(join(repo, 'openspec/changes/plan-x/CHANGE.md'), 'utf8')).toContain('| remove | T.5 |');
  });

  it('turns a failing archive into status error recorded as plan-archive-error, and records skips', async () => {
    await openChange('plan-x');
    rmSync(join(repo, 'openspec/changes/plan-x/CHANGE.md'));
    const outcome = await f.specs.autoArchive(opts());
    expect(outcome).toMatchObject({ status: 'error', reason: expect.stringContaining('no open spec change') });
    expect(await f.specs.skipAutoArchive({ ...opts(), reason: 'sub-tasks outstanding' })).toEqual({
      status: 'skipped',
      reason: 'sub-tasks outstanding',
    });
    expect((await kinds()).slice(0, 2)).toEqual(['plan-archive-skipped', 'plan-archive-error']);
  });
});

/**
 * Spec changes through SpecService: open (CHANGE.md, base copy, spec/<slug> thread),
 * deltas, and archives that merge cleanly, conflict, are refused or take the change.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTokenCounter, DEFAULT_COORDINATION_SETTINGS, rootHash, SpecService } from '../src/index';
import { createFixture, type Fixture } from './_fixture';

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
| T.1 | todo | build the API | V.1, V.2 |
`;

let f: Fixture;
let specs: SpecService;
let repo: string;

beforeEach(() => {
  f = createFixture();
  specs = new SpecService({
    store: f.store,
    clock: f.clock,
    tokens: createTokenCounter(),
    settings: DEFAULT_COORDINATION_SETTINGS,
  });
  repo = f.repo('repo');
  writeFileSync(join(repo, 'SPEC.md'), SPEC);
});
afterEach(() => f.close());

const who = { sessionId: 'sess_a', agent: 'claude' };

describe('SpecService changes', () => {
  it('opens a change with CHANGE.md, a base copy and a joined spec/<slug> thread', () => {
    const opened = specs.openChange({ repoRoot: repo, slug: 'cache-pages', proposal: 'Cache every page.', ...who });
    expect(opened.base_root_hash).toBe(rootHash(SPEC));
    expect(opened.path).toBe(join(repo, 'openspec/changes/cache-pages/CHANGE.md'));
    expect(readFileSync(join(repo, 'openspec/changes/cache-pages/base.SPEC.md'), 'utf8')).toBe(SPEC);
    expect(readFileSync(opened.path, 'utf8')).toContain('## Proposal\n\nCache every page.');
    expect(f.store.path).toBeTruthy();
  });

  it('archives cleanly when the root moved elsewhere', () => {
    specs.openChange({ repoRoot: repo, slug: 'cache-pages', proposal: 'Cache every page.', ...who });
    specs.addDelta({
      repoRoot: repo,
      slug: 'cache-pages',
      sessionId: 'sess_a',
      op: 'modify',
      target: 'V3',
      cells: ['must', 'pages are cached'],
    });
    expect(
      specs.addDelta({
        repoRoot: repo,
        slug: 'cache-pages',
        sessionId: 'sess_a',
        op: 'add',
        target: 'T.2',
        cells: ['todo', 'cache', 'V.3'],
      }),
    ).toEqual({ delta_count: 2 });
    writeFileSync(join(repo, 'SPEC.md'), SPEC.replace('Serve widgets.', 'Serve widgets fast.'));
    const result = specs.archive({ repoRoot: repo, slug: 'cache-pages', ...who, strategy: 'refuse_on_conflict' });
    expect(result.status).toBe('archived');
    const root = readFileSync(join(repo, 'SPEC.md'), 'utf8');
    expect(root).toContain('Serve widgets fast.');
    expect(root).toContain('| V.3 | must | pages are cached |');
    expect(root).toContain('| T.2 | todo | cache | V.3 |');
    expect(result.merged_root_hash).toBe(rootHash(root));
    expect(existsSync(join(repo, 'openspec/changes/cache-pages'))).toBe(false);
    expect(readdirSync(join(repo, 'openspec/archive'))).toEqual(['2026-01-01-cache-pages']);
  });

  it('refuses on conflict and writes nothing', () => {
    specs.openChange({ repoRoot: repo, slug: 'cache-pages', proposal: 'x', ...who });
    specs.addDelta({
      repoRoot: repo,
      slug: 'cache-pages',
      sessionId: 'sess_a',
      op: 'modify',
      target: 'V.3',
      cells: ['must', 'pages are cached'],
    });
    const moved = SPEC.replace(
      '| V.3 | should | pages are cached |',
      '| V.3 | should | pages are cached for a minute |',
    );
    writeFileSync(join(repo, 'SPEC.md'), moved);
    const result = specs.archive({ repoRoot: repo, slug: 'cache-pages', ...who, strategy: 'refuse_on_conflict' });
    expect(result.status).toBe('refused');
    expect(result.conflicts[0]?.ids).toEqual(['V.3']);
    expect(readFileSync(join(repo, 'SPEC.md'), 'utf8')).toBe(moved);
    const lww = specs.archive({ repoRoot: repo, slug: 'cache-pages', ...who, strategy: 'last_writer_wins' });
    expect(lww.status).toBe('archived');
    expect(readFileSync(join(repo, 'SPEC.md'), 'utf8')).toContain('| V.3 | must | pages are cached |');
  });
});

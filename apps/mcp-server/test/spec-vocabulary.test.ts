/**
 * SPEC.md in the vocabulary of existing repositories, over the real wire: lowercase
 * section names (`## §V invariants`), pipe tables without outer pipes whose header is
 * `id|rule|cites` / `id|status|task|cites` / `id|bug|cites` with a `-|-|-` separator,
 * ids like `V1`, and `V1.always` marking an always-on invariant. Read, built into
 * context, changed with `V.4` / `T.1` targets and archived three-way.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Server, startServer, tempDir } from './_harness';

const SPEC = `# Widgets

## §G goal

Serve widgets.

## §C constraints

No network in tests.

## §I interfaces

GET /widgets.

## §V invariants

id|rule|cites
-|-|-
V1.always|no network in tests|-
V2|widgets have ids|T1
V3|pages are cached|-

## §T tasks

id|status|task|cites
-|-|-|-
T1|todo|cache pages|V2,V3
T2|done|serve widgets|V2

## §B bugs

id|bug|cites
-|-|-
B1|cache never expires|V3
`;

let server: Server;
let repo: string;
const who = { session_id: 'claude-1', agent: 'claude' };

const ok = async (tool: string, args: Record<string, unknown>) => {
  const result = await server.call(tool, args);
  expect(result.isError, `${tool}: ${result.text}`).toBe(false);
  return result.payload;
};

beforeAll(async () => {
  const dir = tempDir();
  repo = join(dir, 'repo');
  mkdirSync(repo);
  writeFileSync(join(repo, 'SPEC.md'), SPEC);
  server = await startServer({ db: join(dir, 'colony.db'), home: dir, flags: ['--root', repo] });
  await ok('task_thread', { repo_root: repo, branch: 'main', ...who });
}, 60_000);

afterAll(async () => {
  await server?.close();
});

describe('SPEC.md in the §-vocabulary of existing repositories', () => {
  it('spec_read lists the rows and the always-on invariants', async () => {
    const read = await ok('spec_read', { repo_root: repo });
    expect(read.sections.map((s: { id: string; row_count?: number }) => [s.id, s.row_count ?? null])).toEqual([
      ['G', null],
      ['C', null],
      ['I', null],
      ['V', 3],
      ['T', 2],
      ['B', 1],
    ]);
    expect(read.alwaysInvariants).toEqual([{ id: 'V.1', rule: 'no network in tests' }]);
  });

  it('spec_build_context builds a present T1 with its cites and the always-on invariants', async () => {
    const context = await ok('spec_build_context', { repo_root: repo, task_id: 'T1' });
    expect(context).toMatchObject({
      task_id: 'T.1',
      cited_ids: ['V.2', 'V.3'],
      always_invariants: [{ id: 'V.1', rule: 'no network in tests' }],
    });
    expect(context.rendered).toContain('cache pages');
    expect(context.rendered).toContain('widgets have ids');
  });

  it('adds V.4, modifies T.1 and archives three-way beside an edit of the root', async () => {
    await ok('spec_change_open', { repo_root: repo, slug: 'expiry', ...who, proposal: 'Caches expire.' });
    const delta = (op: string, target: string, row_cells: string[] = []) =>
      ok('spec_change_add_delta', { repo_root: repo, slug: 'expiry', session_id: 'claude-1', op, target, row_cells });
    expect(await delta('add', 'V.4', ['must', 'cached pages expire'])).toEqual({ delta_count: 1 });
    expect(await delta('add', 'V.5', ['always', 'tests are hermetic'])).toEqual({ delta_count: 2 });
    expect(await delta('modify', 'T.1', ['doing', 'cache pages with expiry', 'V3,V4'])).toEqual({ delta_count: 3 });
    const spec = join(repo, 'SPEC.md');
    writeFileSync(
      spec,
      readFileSync(spec, 'utf8').replace('T2|done|serve widgets|V2', 'T2|done|serve widgets fast|V2'),
    );
    const archived = await ok('spec_archive', { repo_root: repo, slug: 'expiry', ...who, strategy: 'three_way' });
    expect(archived).toMatchObject({ status: 'archived', conflicts: [], applied: 3 });
    const root = readFileSync(spec, 'utf8');
    expect(root).toContain(
      'V1.always|no network in tests|-\nV2|widgets have ids|T1\nV3|pages are cached|-\nV4|cached pages expire|\nV5.always|tests are hermetic|\n',
    );
    expect(root).toContain('T1|doing|cache pages with expiry|V3,V4\nT2|done|serve widgets fast|V2\n');
    expect(root).toContain('## §B bugs\n\nid|bug|cites\n-|-|-\nB1|cache never expires|V3\n');
    const read = await ok('spec_read', { repo_root: repo });
    expect(read.alwaysInvariants).toEqual([
      { id: 'V.1', rule: 'no network in tests' },
      { id: 'V.5', rule: 'tests are hermetic' },
    ]);
  });
});

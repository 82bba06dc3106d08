/**
 * fs_write as a proposal and arbiter_decide: nothing reaches the disk unless the
 * arbiter approved it AND writes are allowed; every proposal and decision leaves an
 * observation; refusals decide nothing.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { countWriteProposals, getObservation, getWriteProposal } from '@swarm/storage';
import { afterEach, describe, expect, it } from 'vitest';
import { createFixture, type Fixture, START } from './_fixture';
import { createWorkspace, type TestWorkspace } from './_workspace';

let fx: Fixture;
let ws: TestWorkspace;
afterEach(() => fx.close());

function setUp(allowWrite: boolean): void {
  fx = createFixture(undefined, { allowWrite, arbiter: 'Arbiter' });
  ws = createWorkspace(fx);
}

const as = (agent: string, extra: Record<string, unknown>) => ({ agent, repo_root: ws.root, ...extra });
const propose = (path: string, content: string, extra: Record<string, unknown> = {}) =>
  fx.ok('fs_write', as('Claude', { path, content, ...extra }));
const decide = (decisions: unknown[]) => fx.ok('arbiter_decide', as('Arbiter', { decisions }));

describe('fs_write', () => {
  it('queues a proposal with an observation and writes nothing', async () => {
    setUp(true);
    const before = fx.observations();
    const result = await propose('docs/notes.md', 'Hello');
    expect(result).toEqual({
      proposal_id: result.proposal_id,
      path: 'docs/notes.md',
      status: 'pending',
      next_tool: 'arbiter_decide',
    });
    expect(existsSync(join(ws.root, 'docs/notes.md'))).toBe(false);
    expect(fx.observations()).toBe(before + 1);
    const row = getWriteProposal(fx.store, result.proposal_id as number)!;
    expect(row).toMatchObject({ status: 'pending', agent: 'Claude', path: 'docs/notes.md', createdAt: START });
    expect(getObservation(fx.store, row.observationId)).toMatchObject({
      kind: 'write-proposal',
      sessionId: 'swarm:Claude',
      metadata: { tool: 'fs_write', file_path: 'docs/notes.md', bytes: 5 },
    });
  });

  it('keeps one pending proposal per path: a newer one supersedes the older', async () => {
    setUp(false);
    const first = await propose('docs/notes.md', 'v1');
    const second = await fx.ok('fs_write', as('Gemini', { path: './docs//notes.md', content: 'v2' }));
    expect(second.superseded_id).toBe(first.proposal_id);
    const pending = await fx.ok('fs_proposals', as('Arbiter', { include_content: true }));
    expect(pending).toEqual({
      proposals: [
        {
          proposal_id: second.proposal_id,
          path: 'docs/notes.md',
          agent: 'Gemini',
          bytes: 2,
          created_at: START,
          content: 'v2',
        },
      ],
      count: 1,
      writes_allowed: false,
    });
    expect(getWriteProposal(fx.store, first.proposal_id as number)!.status).toBe('superseded');
  });

  it('lists previews by default, oldest first', async () => {
    setUp(false);
    await propose('a.md', 'x'.repeat(500));
    await propose('b.md', 'short');
    const { proposals } = await fx.ok('fs_proposals', as('Arbiter', {}));
    expect(proposals.map((p: { path: string }) => p.path)).toEqual(['a.md', 'b.md']);
    expect(proposals[0].preview).toHaveLength(200);
    expect(proposals[0].bytes).toBe(500);
    expect(proposals[0]).not.toHaveProperty('content');
  });

  it('refuses a folder as target and .gitignored paths', async () => {
    setUp(true);
    expect((await fx.fail('fs_write', as('Claude', { path: 'src', content: 'x' }))).code).toBe('PATH_NOT_FOUND');
    expect((await fx.fail('fs_write', as('Claude', { path: 'out.log', content: 'x' }))).code).toBe('PATH_IGNORED');
    expect(countWriteProposals(fx.store)).toBe(0);
  });
});

describe('arbiter_decide', () => {
  it.each([
    [false, 'approve', 'approved', false],
    [false, 'reject', 'rejected', false],
    [true, 'reject', 'rejected', false],
    [true, 'approve', 'applied', true],
  ] as const)('allowWrite %s, %s: %s, written: %s', async (allowWrite, action, status, written) => {
    setUp(allowWrite);
    const { proposal_id } = await propose('docs/notes.md', 'Hello');
    const before = fx.observations();
    const result = await decide([{ path: 'docs/notes.md', action, notes: 'ok' }]);
    expect(result.results).toEqual([
      {
        path: 'docs/notes.md',
        proposal_id,
        status,
        ...(status === 'approved' ? { code: 'WRITES_NOT_ALLOWED' } : {}),
      },
    ]);
    expect(result.writes_allowed).toBe(allowWrite);
    expect(existsSync(join(ws.root, 'docs/notes.md'))).toBe(written);
    if (written) expect(readFileSync(join(ws.root, 'docs/notes.md'), 'utf8')).toBe('Hello');
    expect(fx.observations()).toBe(before + 1);
    const row = getWriteProposal(fx.store, proposal_id)!;
    expect(row).toMatchObject({ status, decidedBy: 'Arbiter', notes: 'ok' });
  });

  it('records the decision as an observation of the arbiter', async () => {
    setUp(true);
    const { proposal_id } = await propose('docs/notes.md', 'Hello');
    await decide([{ path: 'docs/notes.md', action: 'approve', notes: 'looks right' }]);
    const decision = await fx.store.read(() => getWriteProposal(fx.store, proposal_id)!);
    expect(decision.decidedAt).toBe(START);
    const last = getObservation(fx.store, fx.observations())!;
    expect(last).toMatchObject({
      kind: 'write-decision',
      sessionId: 'swarm:Arbiter',
      content: 'Arbiter applied docs/notes.md: looks right',
      metadata: { proposal_id, action: 'approve', status: 'applied', file_path: 'docs/notes.md' },
    });
  });

  it('applies several decisions at once, creating folders and leaving no temporary file', async () => {
    setUp(true);
    await propose('new/deep/a.md', 'A');
    await propose('README.md', 'replaced');
    await propose('b.md', 'B');
    const result = await decide([
      { path: 'new/deep/a.md', action: 'approve' },
      { path: 'README.md', action: 'approve' },
      { path: 'b.md', action: 'reject', notes: 'no' },
    ]);
    expect(result.results.map((r: { status: string }) => r.status)).toEqual(['applied', 'applied', 'rejected']);
    expect(readFileSync(join(ws.root, 'new/deep/a.md'), 'utf8')).toBe('A');
    expect(readFileSync(join(ws.root, 'README.md'), 'utf8')).toBe('replaced');
    expect(existsSync(join(ws.root, 'b.md'))).toBe(false);
    expect(readdirSync(ws.root).filter((n) => n.endsWith('.tmp'))).toEqual([]);
    expect((await fx.ok('fs_proposals', as('Arbiter', {}))).count).toBe(0);
  });

  it('fails an approved write whose folder is missing when create_dirs is false', async () => {
    setUp(true);
    const { proposal_id } = await propose('absent/x.md', 'x', { create_dirs: false });
    const result = await decide([{ path: 'absent/x.md', action: 'approve' }]);
    expect(result.results[0]).toMatchObject({ proposal_id, status: 'failed', code: 'PATH_NOT_FOUND' });
    expect(existsSync(join(ws.root, 'absent'))).toBe(false);
    expect(getWriteProposal(fx.store, proposal_id)!).toMatchObject({ status: 'failed', errorCode: 'PATH_NOT_FOUND' });
  });

  it('re-checks confinement at decision time: a folder swapped for a symlink out is refused', async () => {
    setUp(true);
    mkdirSync(join(ws.root, 'out'));
    await propose('out/evil.md', 'pwned');
    renameSync(join(ws.root, 'out'), join(ws.root, 'out-moved'));
    symlinkSync(ws.outside, join(ws.root, 'out'));
    const error = await fx.fail(
      'arbiter_decide',
      as('Arbiter', { decisions: [{ path: 'out/evil.md', action: 'approve' }] }),
    );
    expect(error.code).toBe('PATH_OUTSIDE_REPO');
    expect(existsSync(join(ws.outside, 'evil.md'))).toBe(false);
    expect(countWriteProposals(fx.store, 'pending')).toBe(1);
  });

  it('decides each decision on its own: one without a pending proposal does not stop the others', async () => {
    setUp(true);
    await propose('a.md', 'A');
    const decided = await fx.ok<{ results: unknown[] }>(
      'arbiter_decide',
      as('Arbiter', {
        decisions: [
          { path: 'a.md', action: 'approve' },
          { path: 'never-proposed.md', action: 'approve' },
        ],
      }),
    );
    expect(decided.results).toEqual([
      expect.objectContaining({ path: 'a.md', status: 'applied' }),
      expect.objectContaining({
        path: 'never-proposed.md',
        status: 'failed',
        code: 'PROPOSAL_NOT_FOUND',
        proposal_id: null,
      }),
    ]);
    expect(readFileSync(join(ws.root, 'a.md'), 'utf8')).toBe('A');
    expect(countWriteProposals(fx.store, 'pending')).toBe(0);
  });

  it('decides nothing when no decision of the batch has a pending proposal', async () => {
    setUp(true);
    await propose('a.md', 'A');
    const before = fx.observations();
    const error = await fx.fail(
      'arbiter_decide',
      as('Arbiter', { decisions: [{ path: 'never-proposed.md', action: 'approve' }] }),
    );
    expect(error).toMatchObject({ code: 'PROPOSAL_NOT_FOUND', path: 'never-proposed.md' });
    expect(countWriteProposals(fx.store, 'pending')).toBe(1);
    expect(fx.observations()).toBe(before);
  });

  it('pins a decision to the proposal reviewed: a superseded one is not approved in its place', async () => {
    setUp(true);
    const reviewed = await propose('a.md', 'reviewed');
    const sneaked = await fx.ok('fs_write', as('Mallory', { path: 'a.md', content: 'unreviewed' }));
    const error = await fx.fail(
      'arbiter_decide',
      as('Arbiter', { decisions: [{ path: 'a.md', action: 'approve', proposal_id: reviewed.proposal_id }] }),
    );
    expect(error).toMatchObject({ code: 'PROPOSAL_NOT_FOUND', pending_id: sneaked.proposal_id });
    expect(existsSync(join(ws.root, 'a.md'))).toBe(false);
  });

  it('decides a proposal once: a second decision finds nothing pending', async () => {
    setUp(false);
    await propose('a.md', 'A');
    await decide([{ path: 'a.md', action: 'approve' }]);
    const again = await fx.fail('arbiter_decide', as('Arbiter', { decisions: [{ path: 'a.md', action: 'approve' }] }));
    expect(again.code).toBe('PROPOSAL_NOT_FOUND');
  });

  it('refuses strict-JSON violations: unknown keys, bad actions, one path twice', async () => {
    setUp(true);
    await propose('a.md', 'A');
    const bad = [
      [{ path: 'a.md', action: 'approve', extra: 1 }],
      [{ path: 'a.md', action: 'maybe' }],
      [{ action: 'approve' }],
      [],
      [
        { path: 'a.md', action: 'approve' },
        { path: './a.md', action: 'reject' },
      ],
    ];
    for (const decisions of bad) {
      expect((await fx.fail('arbiter_decide', as('Arbiter', { decisions }))).code).toBe('INVALID_PARAMETERS');
    }
    expect(countWriteProposals(fx.store, 'pending')).toBe(1);
    expect(existsSync(join(ws.root, 'a.md'))).toBe(false);
  });
});

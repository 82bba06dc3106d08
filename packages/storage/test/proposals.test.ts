/**
 * Proposal and spec-failure rows: the guarded promotion (one winner, the loser told),
 * scoped listing, evidence ordering, and the failure counter upsert.
 */
import { expect, it } from 'vitest';
import {
  countSpecFailure,
  ensureTask,
  getProposal,
  insertProposal,
  insertReinforcement,
  listProposals,
  listReinforcements,
  promoteProposal,
  type Store,
  setSpecFailureProposal,
  upsertSession,
} from '../src/index';
import { describeMatrix } from './_matrix';

const T0 = 1_000_000;

function propose(store: Store, summary: string, branch = 'main') {
  return insertProposal(
    store,
    {
      repoRoot: '/r',
      branch,
      summary,
      rationale: 'why',
      touchesFiles: ['a.ts'],
      proposedBySession: 'a',
      observationId: 1,
    },
    T0,
  );
}

describeMatrix('proposals', ({ open }) => {
  it('promotes a pending proposal once; a second promotion is refused', () => {
    const store = open();
    upsertSession(store, { id: 'a' }, T0);
    const p = propose(store, 'one');
    expect(p).toMatchObject({ status: 'pending', taskId: null, touchesFiles: ['a.ts'], createdAt: T0 });
    const { task } = ensureTask(store, { repoRoot: '/r', branch: 'proposal/1' }, T0);
    expect(promoteProposal(store, p.id, task.id, T0 + 5)).toBe(true);
    expect(promoteProposal(store, p.id, task.id, T0 + 6)).toBe(false);
    expect(getProposal(store, p.id)).toMatchObject({ status: 'promoted', taskId: task.id, promotedAt: T0 + 5 });
  });

  it('lists by repo, branch and status, newest first, and promoted ones since a time', () => {
    const store = open();
    upsertSession(store, { id: 'a' }, T0);
    const [one, two] = [propose(store, 'one'), propose(store, 'two')];
    propose(store, 'other branch', 'dev');
    const { task } = ensureTask(store, { repoRoot: '/r', branch: 'proposal/x' }, T0);
    promoteProposal(store, one.id, task.id, T0 + 100);
    expect(listProposals(store, { repoRoot: '/r', branch: 'main', status: 'pending' }).map((p) => p.id)).toEqual([
      two.id,
    ]);
    const promoted = (since: number) =>
      listProposals(store, { repoRoot: '/r', branch: 'main', status: 'promoted', promotedSince: since });
    expect(promoted(T0 + 100).map((p) => p.id)).toEqual([one.id]);
    expect(promoted(T0 + 101)).toEqual([]);
  });

  it('keeps evidence rows with their stored weight, oldest first', () => {
    const store = open();
    upsertSession(store, { id: 'a' }, T0);
    const p = propose(store, 'one');
    const row = (ts: number, weight: number) =>
      insertReinforcement(store, {
        proposalId: p.id,
        sessionId: 'a',
        agentType: 'claude',
        kind: 'explicit',
        weight,
        ts,
        observationId: 1,
      });
    row(T0 + 2, 0.3);
    row(T0 + 1, 1.5);
    expect(listReinforcements(store, [p.id]).map((r) => [r.ts, r.weight])).toEqual([
      [T0 + 1, 1.5],
      [T0 + 2, 0.3],
    ]);
    expect(listReinforcements(store, [])).toEqual([]);
  });

  it('counts failures of one signature per repository and links their proposal', () => {
    const store = open();
    upsertSession(store, { id: 'a' }, T0);
    const report = { repoRoot: '/r', signatureHash: 'abc', testId: 't:1', summary: 'first' };
    expect(countSpecFailure(store, report, T0)).toMatchObject({ count: 1, firstSeenAt: T0, proposalId: null });
    expect(countSpecFailure(store, { ...report, summary: 'second' }, T0 + 1)).toMatchObject({
      count: 2,
      summary: 'second',
      firstSeenAt: T0,
      lastSeenAt: T0 + 1,
    });
    expect(countSpecFailure(store, { ...report, repoRoot: '/other' }, T0).count).toBe(1);
    const p = propose(store, 'invariant');
    setSpecFailureProposal(store, '/r', 'abc', p.id);
    expect(countSpecFailure(store, report, T0 + 2)).toMatchObject({ count: 3, proposalId: p.id });
  });
});

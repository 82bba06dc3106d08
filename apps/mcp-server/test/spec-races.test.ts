/**
 * Proposals and spec changes raced by real server processes on one database and one
 * repository: one promotion of many concurrent reinforcements, one opener of a slug,
 * and concurrent archives of different changes that both land without losing either.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { findTask, taskTimeline } from '@swarm/storage';
import { afterEach, describe, expect, it } from 'vitest';
import { openTestStore } from './_backend';
import { type Server, serverFleet, tempDir } from './_harness';

const SPEC = `# Race

## §V Invariants

| id | level | rule |
| --- | --- | --- |
| V.1 | must | one |
| V.2 | must | two |
| V.3 | must | three |
`;

describe('proposals and spec changes across processes', () => {
  const { start, closeAll } = serverFleet();
  afterEach(closeAll);

  async function fleetOf(n: number) {
    const dir = tempDir();
    const db = join(dir, 'colony.db');
    const repo = join(dir, 'repo');
    mkdirSync(repo);
    writeFileSync(join(repo, 'SPEC.md'), SPEC);
    const fleet: Server[] = await Promise.all(Array.from({ length: n }, () => start(db, dir)));
    return { db, repo, fleet };
  }

  it('promotes a proposal exactly once when six processes reinforce it at the same moment', async () => {
    const { db, repo, fleet } = await fleetOf(6);
    await Promise.all(
      fleet.map((s, i) =>
        s.call('task_thread', { repo_root: repo, branch: 'main', session_id: `codex-${i}`, agent: 'codex' }),
      ),
    );
    await fleet[0]!.call('task_thread', { repo_root: repo, branch: 'main', session_id: 'claude-0', agent: 'claude' });
    const { payload } = await fleet[0]!.call('task_propose', {
      repo_root: repo,
      branch: 'main',
      summary: 'Share one walker',
      rationale: 'Three copies.',
      session_id: 'claude-0',
    });
    const results = await Promise.all(
      fleet.map((s, i) =>
        s.call('task_reinforce', { proposal_id: payload.proposal_id, session_id: `codex-${i}`, kind: 'rediscovered' }),
      ),
    );
    expect(results.filter((r) => r.isError)).toEqual([]);
    const taskIds = new Set(results.map((r) => r.payload.task_id));
    expect(taskIds.size).toBe(1);
    expect(results.every((r) => r.payload.promoted)).toBe(true);
    const store = await openTestStore(db);
    try {
      const task = await findTask(store, repo, `proposal/${payload.proposal_id}`);
      expect(task?.id).toBe([...taskIds][0]);
      expect((await taskTimeline(store, task!.id, 50)).filter((o) => o.kind === 'proposal-promoted')).toHaveLength(1);
    } finally {
      await store.close();
    }
  });

  it('lets exactly one of four processes open the same change', async () => {
    const { repo, fleet } = await fleetOf(4);
    const results = await Promise.all(
      fleet.map((s, i) =>
        s.call('spec_change_open', {
          repo_root: repo,
          slug: 'same-slug',
          session_id: `codex-${i}`,
          agent: 'codex',
          proposal: `opener ${i}`,
        }),
      ),
    );
    expect(results.filter((r) => !r.isError)).toHaveLength(1);
    expect(results.filter((r) => r.isError).map((r) => r.payload.code)).toEqual(Array(3).fill('SPEC_CHANGE_EXISTS'));
    const winner = results.findIndex((r) => !r.isError);
    expect(readFileSync(join(repo, 'openspec/changes/same-slug/CHANGE.md'), 'utf8')).toContain(`opener ${winner}`);
  });

  it('lands concurrent archives of different changes one after the other, losing neither', async () => {
    const { repo, fleet } = await fleetOf(3);
    const rows = [
      ['V.1', 'one, always'],
      ['V.3', 'three, always'],
      ['V.4', 'four'],
    ] as const;
    for (const [i, [target, rule]] of rows.entries()) {
      const s = fleet[i]!;
      const who = { session_id: `claude-${i}`, agent: 'claude' };
      await s.call('spec_change_open', { repo_root: repo, slug: `change-${i}`, ...who, proposal: rule });
      await s.call('spec_change_add_delta', {
        repo_root: repo,
        slug: `change-${i}`,
        session_id: who.session_id,
        op: target === 'V.4' ? 'add' : 'modify',
        target,
        row_cells: ['must', rule],
      });
    }
    const results = await Promise.all(
      fleet.map((s, i) =>
        s.call('spec_archive', {
          repo_root: repo,
          slug: `change-${i}`,
          session_id: `claude-${i}`,
          agent: 'claude',
          strategy: 'refuse_on_conflict',
        }),
      ),
    );
    expect(results.map((r) => [r.isError, r.payload.status])).toEqual(Array(3).fill([false, 'archived']));
    const root = readFileSync(join(repo, 'SPEC.md'), 'utf8');
    for (const [target, rule] of rows) expect(root).toContain(`| ${target} | must | ${rule} |`);
    expect(root).toContain('| V.2 | must | two |');
  });
});

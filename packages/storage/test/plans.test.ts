/**
 * Plan queries: slugs unique per repository, guarded sub-task transitions that succeed
 * once, and the partial unique index that allows one active claim per sub-task
 * whatever the code above it does.
 */
import { expect, it } from 'vitest';
import { handleOf } from '../src/_store';
import {
  claimedSubtasksOfSession,
  claimSubtask,
  completeSubtask,
  ensureTask,
  findPlan,
  getSubtask,
  insertObservation,
  insertPlan,
  insertSubtask,
  listPlans,
  markPlanArchived,
  plansWithSlug,
  releaseSubtaskClaim,
  type Store,
  subtaskClaims,
  subtasksForSpecRow,
  unblockSubtasks,
  upsertSession,
} from '../src/index';
import { describeMatrix } from './_matrix';

const NOW = 1_000_000;

function seed(store: Store, repoRoot = '/r', slug = 'plan-a') {
  return store.write(async () => {
    for (const id of ['s-claude', 's-codex']) upsertSession(store, { id }, NOW);
    const { task: spec } = ensureTask(store, { repoRoot, branch: `spec/${slug}` }, NOW);
    const obs = await insertObservation(store, {
      sessionId: 's-claude',
      taskId: spec.id,
      kind: 'plan-config',
      content: 'x',
      ts: NOW,
      tokenCount: 1,
    });
    const plan = insertPlan(
      store,
      {
        repoRoot,
        slug,
        title: 'Plan A',
        problem: 'p',
        acceptanceCriteria: ['a'],
        specTaskId: spec.id,
        specChangePath: null,
        autoArchive: false,
        createdBy: 's-claude',
        createdByAgent: 'claude',
        observationId: obs,
      },
      NOW,
    );
    const subtasks = [0, 1].map((index) => {
      const { task } = ensureTask(store, { repoRoot, branch: `spec/${slug}/sub-${index}` }, NOW);
      return insertSubtask(store, {
        planId: plan.id,
        subtaskIndex: index,
        title: `S${index}`,
        description: 'd',
        fileScope: [`f${index}.ts`],
        dependsOn: index === 0 ? [] : [0],
        capabilityHint: null,
        specRowId: index === 1 ? 'T7' : null,
        taskId: task.id,
        branch: task.branch,
        waveIndex: index,
        status: index === 0 ? 'available' : 'blocked',
        observationId: obs,
      });
    });
    return { plan, subtasks, obs };
  });
}

describeMatrix('plan queries', ({ open }) => {
  it('keeps a slug unique per repository, not across repositories', async () => {
    const store = open();
    const { plan } = await seed(store);
    await expect(seed(store)).rejects.toThrow(/UNIQUE constraint failed: plans.repo_root, plans.slug/);
    await seed(store, '/other');
    expect(findPlan(store, '/r', 'plan-a')?.id).toBe(plan.id);
    expect(plansWithSlug(store, 'plan-a').map((p) => p.repoRoot)).toEqual(['/r', '/other']);
    expect(listPlans(store, { repoRoot: '/other' })).toHaveLength(1);
  });

  it('claims an available sub-task once; a blocked or claimed one not at all', async () => {
    const store = open();
    const { subtasks, obs } = await seed(store);
    const [first, second] = subtasks;
    const claim = (id: number, sessionId: string) =>
      store.write(() => claimSubtask(store, id, { sessionId, agent: 'codex', observationId: obs }, NOW + 1));
    expect(await claim(second!.id, 's-codex')).toBe(false);
    expect(await claim(first!.id, 's-codex')).toBe(true);
    expect(await claim(first!.id, 's-claude')).toBe(false);
    expect(getSubtask(store, first!.planId, 0)).toMatchObject({
      status: 'claimed',
      claimedBySessionId: 's-codex',
      claimedAt: NOW + 1,
    });
    expect(subtaskClaims(store, first!.id).map((c) => [c.sessionId, c.state])).toEqual([['s-codex', 'active']]);
    expect(claimedSubtasksOfSession(store, 's-codex').map((s) => [s.planSlug, s.subtaskIndex])).toEqual([
      ['plan-a', 0],
    ]);
  });

  it('refuses a second active claim row for one sub-task by its partial unique index', async () => {
    const store = open();
    const { subtasks, obs } = await seed(store);
    const id = subtasks[0]!.id;
    await store.write(() => claimSubtask(store, id, { sessionId: 's-codex', agent: 'codex', observationId: obs }, NOW));
    const insert = handleOf(store).sqlite.prepare(
      `INSERT INTO plan_subtask_claims (subtask_id, session_id, agent, state, claimed_at, observation_id)
       VALUES (?, 's-claude', 'claude', ?, ?, ?)`,
    );
    expect(() => insert.run(id, 'active', NOW, obs)).toThrow(
      /UNIQUE constraint failed: plan_subtask_claims.subtask_id/,
    );
    // Ended claims are history: any number of them may sit beside the active one.
    insert.run(id, 'released', NOW, obs);
    insert.run(id, 'completed', NOW, obs);
    expect(subtaskClaims(store, id).map((c) => c.state)).toEqual(['active', 'released', 'completed']);
  });

  it('completes only for the holder, releases back to available, and unblocks once', async () => {
    const store = open();
    const { subtasks, obs } = await seed(store);
    const [first, second] = subtasks;
    await store.write(() =>
      claimSubtask(store, first!.id, { sessionId: 's-codex', agent: 'codex', observationId: obs }, NOW),
    );
    expect(await store.write(() => completeSubtask(store, first!.id, 's-claude', NOW))).toBe(false);
    expect(await store.write(() => releaseSubtaskClaim(store, first!.id, NOW + 5))).toBe(true);
    expect(await store.write(() => releaseSubtaskClaim(store, first!.id, NOW + 5))).toBe(false);
    expect(getSubtask(store, first!.planId, 0)).toMatchObject({ status: 'available', claimedBySessionId: null });
    await store.write(() =>
      claimSubtask(store, first!.id, { sessionId: 's-claude', agent: 'claude', observationId: obs }, NOW + 6),
    );
    expect(await store.write(() => completeSubtask(store, first!.id, 's-claude', NOW + 7))).toBe(true);
    expect(subtaskClaims(store, first!.id).map((c) => [c.sessionId, c.state, c.endedAt])).toEqual([
      ['s-codex', 'released', NOW + 5],
      ['s-claude', 'completed', NOW + 7],
    ]);
    expect(await store.write(() => unblockSubtasks(store, [first!.id, second!.id]))).toBe(1);
    expect(await store.write(() => unblockSubtasks(store, [second!.id]))).toBe(0);
    expect(subtasksForSpecRow(store, '/r', 'T7').map((s) => [s.planSlug, s.status])).toEqual([['plan-a', 'available']]);
  });

  it('archives a plan once', async () => {
    const store = open();
    const { plan } = await seed(store);
    expect(await store.write(() => markPlanArchived(store, plan.id, NOW + 9))).toBe(true);
    expect(await store.write(() => markPlanArchived(store, plan.id, NOW + 10))).toBe(false);
    expect(listPlans(store, { status: 'archived' })[0]).toMatchObject({ archivedAt: NOW + 9 });
  });
});

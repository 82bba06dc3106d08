/**
 * Ready-work and stranded-work lookups, and capability profiles: who is quiet, whose
 * claims are live, which plan sub-tasks the picker reads, and merged profile weights.
 */
import { expect, it } from 'vitest';
import { handleOf } from '../src/_store';
import {
  activeClaimsOfIdleSessions,
  claimSubtask,
  completeSubtask,
  countActivePlans,
  endSession,
  ensureTask,
  getProfile,
  insertClaim,
  insertObservation,
  insertPlan,
  insertSubtask,
  joinTask,
  liveClaimsOfSession,
  markClaimsPending,
  markPlanArchived,
  othersLiveClaimsOnFiles,
  QUIET_LANES_SQL,
  quietLanes,
  readySubtaskRows,
  recentSessionAgents,
  type Store,
  subtasksClaimedByIdleSessions,
  subtasksOfTasks,
  upsertProfile,
  upsertSession,
} from '../src/index';
import { describeMatrix } from './_matrix';

const T0 = 1_000_000;

/** Sessions quiet since T0 (claude-1) and active at T0 + 100 (codex-1), on /r main and /other main. */
function seed(store: Store) {
  return store.write(async () => {
    upsertSession(store, { id: 'claude-1', agent: 'claude' }, T0);
    upsertSession(store, { id: 'codex-1', agent: 'codex' }, T0 + 100);
    const { task } = ensureTask(store, { repoRoot: '/r', branch: 'main', title: 'main work' }, T0);
    const other = ensureTask(store, { repoRoot: '/other', branch: 'main' }, T0).task;
    for (const [s, agent] of [
      ['claude-1', 'claude'],
      ['codex-1', 'codex'],
    ]) {
      joinTask(store, task.id, s as string, agent as string, T0);
    }
    const obs = await insertObservation(store, {
      sessionId: 'claude-1',
      taskId: task.id,
      kind: 'x',
      content: 'x',
      ts: T0,
      tokenCount: 1,
    });
    const claim = (taskId: number, filePath: string, sessionId: string, agent: string) =>
      insertClaim(store, { taskId, filePath, sessionId, agent, observationId: obs }, T0);
    const a = claim(task.id, 'src/a.ts', 'claude-1', 'claude');
    const b = claim(task.id, 'src/b.ts', 'claude-1', 'claude');
    claim(other.id, 'src/a.ts', 'codex-1', 'codex');
    claim(task.id, 'src/c.ts', 'codex-1', 'codex');
    markClaimsPending(store, [b.id], obs, T0 + 1000);
    return { task, other, obs, a };
  });
}

function publish(store: Store, repoRoot: string, slug: string, obs: number, statuses: Array<'available' | 'blocked'>) {
  return store.write(() => {
    const spec = ensureTask(store, { repoRoot, branch: `spec/${slug}` }, T0).task;
    const plan = insertPlan(
      store,
      {
        repoRoot,
        slug,
        title: slug,
        problem: 'p',
        acceptanceCriteria: ['done'],
        specTaskId: spec.id,
        specChangePath: null,
        autoArchive: false,
        createdBy: 'queen',
        createdByAgent: 'claude',
        observationId: obs,
      },
      T0,
    );
    const subtasks = statuses.map((status, i) => {
      const task = ensureTask(store, { repoRoot, branch: `spec/${slug}/sub-${i}` }, T0).task;
      return insertSubtask(store, {
        planId: plan.id,
        subtaskIndex: i,
        title: `sub ${i}`,
        description: 'a long description the picker never reads',
        fileScope: [`src/${slug}-${i}.ts`],
        dependsOn: status === 'blocked' ? [0] : [],
        capabilityHint: i === 0 ? 'api_work' : null,
        specRowId: null,
        taskId: task.id,
        branch: task.branch,
        waveIndex: status === 'blocked' ? 1 : 0,
        status,
        observationId: obs,
      });
    });
    return { plan, subtasks };
  });
}

describeMatrix('ready-work lookups', ({ open }) => {
  it('finds active claims of sessions quiet before the cutoff, not pending ones, not of live sessions', async () => {
    const store = open();
    const { task } = await seed(store);
    expect(activeClaimsOfIdleSessions(store, T0 + 50).map((c) => [c.sessionId, c.filePath, c.repoRoot])).toEqual([
      ['claude-1', 'src/a.ts', '/r'],
    ]);
    expect(activeClaimsOfIdleSessions(store, T0).map((c) => c.filePath)).toEqual([]);
    expect(activeClaimsOfIdleSessions(store, T0 + 200).map((c) => `${c.sessionId}:${c.taskId === task.id}`)).toEqual([
      'claude-1:true',
      'codex-1:true',
      'codex-1:false',
    ]);
  });

  it('lists a session’s live claims and others’ live claims on files of one repository', async () => {
    const store = open();
    await seed(store);
    expect(liveClaimsOfSession(store, 'claude-1').map((c) => [c.filePath, c.state])).toEqual([
      ['src/a.ts', 'active'],
      ['src/b.ts', 'handoff_pending'],
    ]);
    const others = othersLiveClaimsOnFiles(store, '/r', ['src/a.ts', 'src/b.ts', 'src/c.ts', 'src/a.ts'], 'claude-1');
    expect(others.map((c) => [c.filePath, c.sessionId])).toEqual([['src/c.ts', 'codex-1']]);
    expect(othersLiveClaimsOnFiles(store, '/other', ['src/a.ts'], 'claude-1').map((c) => c.sessionId)).toEqual([
      'codex-1',
    ]);
    expect(othersLiveClaimsOnFiles(store, '/r', [], 'claude-1')).toEqual([]);
  });

  it('knows the agents around since a time', async () => {
    const store = open();
    await seed(store);
    expect(recentSessionAgents(store, T0 + 50)).toEqual([{ sessionId: 'codex-1', agent: 'codex' }]);
  });

  it('lists quiet lanes of others with their live claims, by repository', async () => {
    const store = open();
    const { task } = await seed(store);
    const lanes = quietLanes(store, { after: T0, before: T0 + 50, excludeSessionId: 'codex-1', limit: 10 });
    expect(lanes).toEqual([
      {
        sessionId: 'claude-1',
        agent: 'claude',
        taskId: task.id,
        title: 'main work',
        lastHeartbeatAt: T0,
        liveClaims: 2,
      },
    ]);
    expect(quietLanes(store, { after: T0, before: T0 + 50, excludeSessionId: 'claude-1', limit: 10 })).toEqual([]);
    expect(
      quietLanes(store, { after: T0, before: T0 + 50, excludeSessionId: 'x', repoRoot: '/other', limit: 10 }),
    ).toEqual([]);
    // Heard from before `after` (dead), or ended: not a quiet lane any more.
    expect(quietLanes(store, { after: T0 + 1, before: T0 + 50, excludeSessionId: 'codex-1', limit: 10 })).toEqual([]);
    await store.write(() => endSession(store, 'claude-1', T0 + 10));
    expect(quietLanes(store, { after: T0, before: T0 + 50, excludeSessionId: 'codex-1', limit: 10 })).toEqual([]);
  });

  it('reads quiet lanes from the sessions heartbeat index, never from the tasks of a repository', () => {
    const store = open();
    const plan = (
      handleOf(store)
        .sqlite.prepare(`EXPLAIN QUERY PLAN ${QUIET_LANES_SQL}`)
        .all({ after: 0, before: 1, exclude: 'x', repo: '/r', limit: 5 }) as Array<{ detail: string }>
    )
      .map((r) => r.detail)
      .join('\n');
    expect(plan).toMatch(/^SEARCH s USING INDEX sessions_heartbeat_idx/);
    expect(plan).toContain('SEARCH tp USING INDEX task_participants_session_idx');
    expect(plan).not.toMatch(/SCAN (t|tp|s)\b/);
  });

  it('reads the sub-tasks of active plans with something for the session, lean and parsed', async () => {
    const store = open();
    const { obs } = await seed(store);
    const open_ = await publish(store, '/r', 'open', obs, ['available', 'blocked']);
    const taken = await publish(store, '/r', 'taken', obs, ['available']);
    await store.write(() =>
      claimSubtask(store, taken.subtasks[0]!.id, { sessionId: 'codex-1', agent: 'codex', observationId: obs }, T0),
    );
    const gone = await publish(store, '/r', 'gone', obs, ['available']);
    await store.write(() => markPlanArchived(store, gone.plan.id, T0));
    // A plan whose sub-tasks are all done is history: not read, even for the one who did them.
    const done = await publish(store, '/r', 'done', obs, ['available']);
    await store.write(() => {
      claimSubtask(store, done.subtasks[0]!.id, { sessionId: 'codex-1', agent: 'codex', observationId: obs }, T0);
      completeSubtask(store, done.subtasks[0]!.id, 'codex-1', T0);
    });

    const forClaude = readySubtaskRows(store, 'claude-1', '/r');
    expect(forClaude.map((r) => `${r.planSlug}/${r.subtaskIndex}:${r.status}`)).toEqual([
      'open/0:available',
      'open/1:blocked',
    ]);
    expect(forClaude[1]).toMatchObject({
      fileScope: ['src/open-1.ts'],
      dependsOn: [0],
      capabilityHint: null,
      waveIndex: 1,
    });
    expect(forClaude[0]).not.toHaveProperty('description');
    // The claimer also sees the plan it works in.
    expect(readySubtaskRows(store, 'codex-1').map((r) => r.planSlug)).toEqual(['taken', 'open', 'open']);
    expect(readySubtaskRows(store, 'claude-1', '/other')).toEqual([]);
    expect(countActivePlans(store, '/r')).toBe(3);
    expect(countActivePlans(store)).toBe(3);

    expect(subtasksOfTasks(store, [open_.subtasks[1]!.taskId]).map((s) => [s.planSlug, s.subtaskIndex])).toEqual([
      ['open', 1],
    ]);
    expect(subtasksClaimedByIdleSessions(store, T0 + 200).map((s) => [s.planSlug, s.claimedBySessionId])).toEqual([
      ['taken', 'codex-1'],
    ]);
    expect(subtasksClaimedByIdleSessions(store, T0 + 50)).toEqual([]);
  });
});

describeMatrix('agent profiles', ({ open }) => {
  it('merges weights into the stored ones, keeping created_at', async () => {
    const store = open();
    await store.write(() => upsertProfile(store, 'claude', { ui_work: 0.9, doc_work: 0.1 }, T0));
    const saved = await store.write(() => upsertProfile(store, 'claude', { ui_work: 0.2 }, T0 + 5));
    expect(saved).toEqual({
      agent: 'claude',
      capabilities: { ui_work: 0.2, doc_work: 0.1 },
      createdAt: T0,
      updatedAt: T0 + 5,
    });
    expect(getProfile(store, 'claude')).toEqual(saved);
    expect(getProfile(store, 'codex')).toBeUndefined();
  });
});

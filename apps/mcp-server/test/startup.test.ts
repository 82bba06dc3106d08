/**
 * startup_panel and bridge_status over the real wire: a server process whose clock the
 * test drives, lanes, inbox and ready work built by ordinary tool calls. Both only read:
 * refusals and answers alike leave observations, claims and sub-task claims unchanged.
 */
import { join } from 'node:path';
import { type ColonyStore, countClaims, countObservations, countSubtaskClaims } from '@swarm/storage';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestStore } from './_backend';
import { calls, serverClock } from './_calls';
import { type Server, startServer, tempDir } from './_harness';
import { laneHelpers } from './_lanes';

const MIN = 60_000;
let server: Server;
let store: ColonyStore;
let dir: string;
let clock: ReturnType<typeof serverClock>;

const snapshot = async () => ({
  observations: await countObservations(store),
  claims: await countClaims(store),
  subtaskClaims: await countSubtaskClaims(store),
});
const { ok, refused } = calls(() => server, snapshot);
const { repoDir, thread } = laneHelpers(ok, () => dir);

beforeAll(async () => {
  dir = tempDir();
  const db = join(dir, 'colony.db');
  const clockFile = join(dir, 'clock');
  clock = serverClock(clockFile, Date.UTC(2026, 3, 28, 21, 30));
  server = await startServer({ db, home: dir, clockFile });
  store = await openTestStore(db);
}, 60_000);

afterAll(async () => {
  await store?.close();
  await server?.close();
});

describe('bridge_status over stdio', () => {
  it('follows a stalled neighbour and the caller lane through the driven clock, reading only', async () => {
    const repo = repoDir('repo-hud');
    const task = await thread(repo, 'agent/codex/live-task', 'codex-hud', 'codex', 'Ship bridge status');
    const other = await thread(repo, 'agent/claude/docs', 'claude-hud', 'claude', 'Write the HUD docs');
    await ok('task_claim_file', { task_id: task, session_id: 'codex-hud', file_path: 'apps/mcp-server/src/bridge.ts' });
    await ok('task_claim_file', { task_id: other, session_id: 'claude-hud', file_path: 'docs/hud.md' });
    const note = await ok('task_note_working', {
      session_id: 'codex-hud',
      repo_root: repo,
      branch: 'agent/codex/live-task',
      content: 'branch=agent/codex/live-task; task=bridge status; blocker=none; next=run tests; evidence=bridge_status',
    });
    const args = { session_id: 'codex-hud', agent: 'codex', repo_root: repo, branch: 'agent/codex/live-task' };

    const before = await snapshot();
    const fresh = await ok('bridge_status', args);
    expect(await snapshot()).toEqual(before);
    expect(fresh).toMatchObject({
      schema: 'colony.omx_hud_status.v1',
      generated_at: new Date(clock.now()).toISOString(),
      hivemind: { lane_count: 2, total_lane_count: 2, lanes_truncated: false, needs_attention_count: 0 },
      branch: 'agent/codex/live-task',
      task: 'Ship bridge status',
      next_action: 'Continue agent/codex/live-task.',
      evidence: { task_id: task, latest_working_note_id: note.id, hydrate_with: 'get_observations' },
      claimed_file_count: 1,
      claimed_file_preview: [
        { task_id: task, file_path: 'apps/mcp-server/src/bridge.ts', by_session_id: 'codex-hud', yours: true },
      ],
      latest_working_note: { id: note.id, task_id: task, session_id: 'codex-hud' },
    });
    expect(fresh.hivemind.counts).toEqual({ working: 2, thinking: 0, idle: 0, stalled: 0, dead: 0, unknown: 0 });

    // claude-hud goes quiet; codex-hud keeps calling (each call with its session id is a heartbeat).
    clock.advance(8 * MIN);
    await ok('task_messages', { session_id: 'codex-hud', agent: 'codex' });
    clock.advance(4 * MIN);
    const stalled = await ok('bridge_status', args);
    expect(stalled.hivemind.lane_preview[0]).toMatchObject({
      branch: 'agent/claude/docs',
      owner: 'claude/claude-code',
      activity: 'stalled',
      needs_attention: true,
      risk: 'stalled',
      locked_file_count: 1,
      locked_file_preview: ['docs/hud.md'],
    });
    expect(stalled.hivemind.needs_attention_count).toBe(1);
    expect(stalled.attention_counts).toMatchObject({ lane_needs_attention_count: 1, stalled_lane_count: 1 });
    expect(stalled.next_action).toBe('Continue agent/codex/live-task.');

    clock.advance(55 * MIN);
    await ok('task_messages', { session_id: 'codex-hud', agent: 'codex' });
    clock.advance(6 * MIN);
    const gone = await ok('bridge_status', args);
    expect(gone.hivemind.total_lane_count).toBe(1);
    expect(gone.hivemind.lane_preview[0]).toMatchObject({ branch: 'agent/codex/live-task', activity: 'idle' });
    expect(gone.hivemind.counts.dead).toBe(0);
    expect(gone.attention.stalled_lane_count).toBe(1);
  });

  it('refuses a missing repo_root and wrong types with INVALID_PARAMETERS', async () => {
    await refused('bridge_status', { session_id: 'codex-hud', agent: 'codex' }, 'INVALID_PARAMETERS');
    await refused(
      'bridge_status',
      { session_id: 'codex-hud', agent: 'codex', repo_root: '/abs/repo', branch: 7 },
      'INVALID_PARAMETERS',
    );
    await refused('startup_panel', { session_id: 'codex-hud', agent: 'codex', ready_limit: 0 }, 'INVALID_PARAMETERS');
    await refused('startup_panel', { session_id: 'codex-hud' }, 'INVALID_PARAMETERS');
    await refused('startup_panel', { session_id: 'codex-hud', agent: 'codex', repo_root: 'rel' }, 'INVALID_PARAMETERS');
  });
});

describe('startup_panel over stdio', () => {
  it('recommends the exact claim of ready work and leaves it unclaimed', async () => {
    const repo = repoDir('repo-panel');
    await ok('task_plan_publish', {
      repo_root: repo,
      slug: 'hud',
      session_id: 'queen-hud',
      agent: 'claude',
      title: 'HUD',
      problem: 'p',
      acceptance_criteria: ['done'],
      subtasks: [
        { title: 'Build bridge', description: 'b', file_scope: ['src/bridge.ts'], capability_hint: 'api_work' },
        { title: 'Document bridge', description: 'd', file_scope: ['docs/bridge.md'], depends_on: [0] },
      ],
    });
    const before = await snapshot();
    const card = await ok('startup_panel', {
      session_id: 'codex-new',
      agent: 'codex',
      repo_root: repo,
      ready_limit: 3,
    });
    expect(await snapshot()).toEqual(before);
    expect(card).toMatchObject({
      session_id: 'codex-new',
      repo_root: repo,
      active_task: null,
      ready_task: { plan_slug: 'hud', subtask_index: 0, title: 'Build bridge', file_scope_preview: ['src/bridge.ts'] },
      inbox_count: 0,
      blocking_items: [],
      blocker: null,
      recommended_next_tool: 'task_plan_claim_subtask',
      recommended_next_args: { plan_slug: 'hud', subtask_index: 0, session_id: 'codex-new', agent: 'codex' },
    });
    expect(card.copy_paste_next_mcp_calls[0]).toMatch(/^mcp__colony__task_plan_claim_subtask\(\{.*"plan_slug":"hud"/);
    const claimed = await ok('task_plan_claim_subtask', card.recommended_next_args);
    expect(claimed.file_scope).toEqual(['src/bridge.ts']);
    const resumed = await ok('startup_panel', { session_id: 'codex-new', agent: 'codex', repo_root: repo });
    expect(resumed).toMatchObject({
      active_task: { task_id: claimed.task_id, activity: 'working' },
      active_queen_plan: { plan_slug: 'hud', subtask_index: 0, wave_index: 0 },
      claimed_files: ['src/bridge.ts'],
      next: `Continue ${claimed.branch}.`,
    });
  });
});

/**
 * StartupService: startup_panel and bridge_status composed from the lanes, the
 * caller's attention_inbox and its ready work (ranked without claiming), with the one
 * next step each recommends.
 */
import { countSubtaskClaims } from '@swarm/storage';
import type { BridgeStatusResult, StartupPanelResult } from '@swarm/tools';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFixture, type Fixture } from './_fixture';
import { publish } from './_plans';

const MIN = 60_000;
let fx: Fixture;
let repo: string;

const join = async (session_id: string, agent: string, branch: string, title?: string) =>
  (
    await fx.ok<{ task_id: number }>('task_thread', {
      repo_root: repo,
      branch,
      session_id,
      agent,
      ...(title ? { title } : {}),
    })
  ).task_id;
const panel = (args: Record<string, unknown> = {}) =>
  fx.ok<StartupPanelResult>('startup_panel', { session_id: 'codex-1', agent: 'codex', repo_root: repo, ...args });
const bridge = (args: Record<string, unknown> = {}) =>
  fx.ok<BridgeStatusResult>('bridge_status', { session_id: 'codex-1', agent: 'codex', repo_root: repo, ...args });

beforeEach(() => {
  fx = createFixture();
  repo = fx.repo('repo');
});
afterEach(() => fx.close());

describe('startup_panel', () => {
  it('puts a pending handoff first, then continues the active lane once it is accepted', async () => {
    const task = await join('codex-1', 'codex', 'agent/codex/live', 'Ship bridge status');
    await join('claude-1', 'claude', 'agent/codex/live');
    await fx.ok('task_claim_file', { task_id: task, session_id: 'codex-1', file_path: 'src/bridge.ts' });
    const handoff = await fx.ok<{ handoff_observation_id: number }>('task_hand_off', {
      task_id: task,
      session_id: 'claude-1',
      to_agent: 'codex',
      summary: 'Take over the HUD wiring',
    });
    const first = await panel();
    expect(first).toMatchObject({
      repo_root: repo,
      branch: 'agent/codex/live',
      active_task: { task_id: task, branch: 'agent/codex/live', title: 'Ship bridge status', activity: 'working' },
      inbox_count: 1,
      blocking_items: [{ kind: 'handoff', id: handoff.handoff_observation_id, task_id: task }],
      claimed_files: ['src/bridge.ts'],
      recommended_next_tool: 'task_accept_handoff',
      recommended_next_args: { handoff_observation_id: handoff.handoff_observation_id, session_id: 'codex-1' },
    });
    expect(first.next).toMatch(/^Accept or decline handoff #\d+ on task \d+: Take over the HUD wiring$/);
    expect(first.copy_paste_next_mcp_calls).toEqual([
      `mcp__colony__task_accept_handoff({"handoff_observation_id":${handoff.handoff_observation_id},"session_id":"codex-1"})`,
    ]);
    await fx.ok('task_accept_handoff', {
      handoff_observation_id: handoff.handoff_observation_id,
      session_id: 'codex-1',
    });
    const after = await panel();
    expect(after).toMatchObject({ next: 'Continue agent/codex/live.', recommended_next_tool: 'task_note_working' });
  });

  it('recommends the claim of ready work without claiming it', async () => {
    await publish(fx, repo);
    const card = await panel({ ready_limit: 3 });
    expect(card).toMatchObject({
      active_task: null,
      ready_task: { plan_slug: 'add-widget-page', subtask_index: 0, reason: 'ready_high_score' },
      recommended_next_tool: 'task_plan_claim_subtask',
      recommended_next_args: { plan_slug: 'add-widget-page', subtask_index: 0, session_id: 'codex-1' },
    });
    expect(countSubtaskClaims(fx.store)).toBe(0);
  });
});

describe('bridge_status', () => {
  it('answers the HUD card with capped previews, claims on the active task and the latest working note', async () => {
    const task = await join('codex-1', 'codex', 'agent/codex/live', 'Ship bridge status');
    await join('claude-1', 'claude', 'agent/codex/live');
    for (let i = 0; i < 4; i++) await join(`codex-${i + 10}`, 'codex', `agent/codex/other-${i}`);
    await fx.ok('task_claim_file', { task_id: task, session_id: 'codex-1', file_path: 'src/bridge.ts' });
    await fx.ok('task_claim_file', { task_id: task, session_id: 'claude-1', file_path: 'docs/bridge.md' });
    const note = await fx.ok<{ id: number }>('task_note_working', {
      session_id: 'codex-1',
      repo_root: repo,
      branch: 'agent/codex/live',
      content: 'branch=agent/codex/live; task=bridge status; blocker=none; next=run tests; evidence=bridge_status',
    });
    fx.clock.advance(MIN);
    const hud = await bridge({ branch: 'agent/codex/live' });
    expect(hud).toMatchObject({
      schema: 'colony.omx_hud_status.v1',
      runtime_source: 'colony-session',
      hivemind: { lane_count: 3, total_lane_count: 6, lanes_truncated: true, needs_attention_count: 0 },
      branch: 'agent/codex/live',
      task: 'Ship bridge status',
      blocker: null,
      next_action: 'Continue agent/codex/live.',
      next: 'Continue agent/codex/live.',
      evidence: { task_id: task, latest_working_note_id: note.id, attention_observation_ids: [] },
      attention: { unread_count: 0, blocking: false, pending_handoff_count: 0 },
      ready_work_count: 0,
      claimed_file_count: 2,
      latest_working_note: { id: note.id, task_id: task, session_id: 'codex-1' },
    });
    expect(hud.hivemind.lane_preview[0]).toMatchObject({ risk: 'none', source: 'colony-session' });
    expect(hud.claimed_file_preview).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ file_path: 'src/bridge.ts', by_session_id: 'codex-1', yours: true }),
        expect.objectContaining({ file_path: 'docs/bridge.md', by_session_id: 'claude-1', yours: false }),
      ]),
    );
    expect(hud.latest_working_note?.content).toContain('next=run tests');
  });

  it('surfaces a blocking message as the blocker and the next action', async () => {
    const task = await join('codex-1', 'codex', 'agent/codex/live');
    await join('claude-1', 'claude', 'agent/codex/live');
    const sent = await fx.ok<{ message_observation_id: number }>('task_message', {
      task_id: task,
      session_id: 'claude-1',
      agent: 'claude',
      to_agent: 'codex',
      urgency: 'blocking',
      content: 'Stop: the schema changed under you.',
    });
    const hud = await bridge();
    expect(hud.blocker).toBe('Stop: the schema changed under you.');
    expect(hud.attention).toMatchObject({ unread_count: 1, blocking_count: 1, blocking: true });
    expect(hud.next_action).toMatch(/^Read blocking message #\d+ from claude/);
    expect(hud.evidence.attention_observation_ids).toEqual([sent.message_observation_id]);
  });
});

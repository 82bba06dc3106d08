/**
 * task_list's coordination_warning / next_tool sequence. The warning reads the
 * session's receipts, so this runs through openColony (@swarm/core), which writes a
 * receipt per call: first call the normal warning, a repeat the stronger one, and
 * nothing once the session has used task_ready_for_agent.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Colony, manualClock, openColony } from '@swarm/core';
import { insertReceipts, openStore } from '@swarm/storage';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TASK_LIST_HINT, TASK_LIST_STRONG_WARNING, TASK_LIST_WARNING } from '../src/tasks/task-service';

let home: string;
let colony: Colony;

beforeEach(async () => {
  home = mkdtempSync(join(tmpdir(), 'colony-task-list-'));
  colony = openColony({ home, clock: manualClock() });
  const opened = await colony.handleToolCall('task_thread', {
    repo_root: '/abs/repo',
    branch: 'main',
    session_id: 'codex-1',
    agent: 'codex',
  });
  expect(opened.ok).toBe(true);
});

afterEach(async () => {
  await colony.close();
  rmSync(home, { recursive: true, force: true });
});

async function taskList(args: Record<string, unknown>) {
  const outcome = await colony.handleToolCall('task_list', args);
  if (!outcome.ok) throw new Error(outcome.text);
  return outcome.value as { tasks: unknown[]; hint: string; coordination_warning?: string; next_tool?: string };
}

describe('task_list coordination warnings', () => {
  it('contract wording', () => {
    expect(TASK_LIST_WARNING).toBe('task_list is inventory; use task_ready_for_agent to choose work.');
    expect(TASK_LIST_STRONG_WARNING).toBe('Stop browsing. Call task_ready_for_agent before selecting work.');
  });

  it('warns, then warns harder, then goes quiet after task_ready_for_agent', async () => {
    const first = await taskList({ session_id: 'codex-1' });
    expect(first).toMatchObject({
      hint: TASK_LIST_HINT,
      coordination_warning: TASK_LIST_WARNING,
      next_tool: 'task_ready_for_agent',
    });
    expect(first.tasks).toHaveLength(1);

    const second = await taskList({ session_id: 'codex-1' });
    expect(second).toMatchObject({ coordination_warning: TASK_LIST_STRONG_WARNING, next_tool: 'task_ready_for_agent' });

    // task_ready_for_agent is not a tool yet: record its receipt as the tool would.
    const store = openStore({ path: colony.dbPath });
    try {
      await insertReceipts(store, [
        {
          ts: colony.clock.now(),
          operation: 'task_ready_for_agent',
          sessionId: 'codex-1',
          durationMs: 1,
          inputTokens: 5,
          outputTokens: 5,
          ok: true,
          errorCode: null,
          errorMessage: null,
        },
      ]);
    } finally {
      store.close();
    }

    const third = await taskList({ session_id: 'codex-1' });
    expect(third).not.toHaveProperty('coordination_warning');
    expect(third).not.toHaveProperty('next_tool');
    expect(third.hint).toBe(TASK_LIST_HINT);
  });

  it('keeps the warnings per session', async () => {
    await taskList({ session_id: 'codex-1' });
    expect((await taskList({ session_id: 'claude-2' })).coordination_warning).toBe(TASK_LIST_WARNING);
    expect((await taskList({ session_id: 'codex-1' })).coordination_warning).toBe(TASK_LIST_STRONG_WARNING);
  });

  it('always gives the normal warning when no session is named', async () => {
    for (let i = 0; i < 3; i++) {
      expect(await taskList({})).toMatchObject({
        coordination_warning: TASK_LIST_WARNING,
        next_tool: 'task_ready_for_agent',
      });
    }
  });
});

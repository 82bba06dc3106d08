/**
 * Receipts and token counts off the write path: a write never loads the tokenizer on
 * the caller's thread (observations get an estimate, refined with the receipts),
 * receipts ride in the next write or are flushed before a read, and close loses none.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTokenCounter } from '@swarm/coordination';
import { getObservation, listReceipts, openStore } from '@swarm/storage';
import { afterEach, describe, expect, it } from 'vitest';
import { type Colony, manualClock, openColony } from '../src/index';

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const fn of cleanups.splice(0).reverse()) fn();
});

function open(): Colony {
  const home = mkdtempSync(join(tmpdir(), 'colony-receipts-'));
  const colony = openColony({ home, clock: manualClock() });
  cleanups.push(() => rmSync(home, { recursive: true, force: true }));
  cleanups.push(() => colony.close());
  return colony;
}

async function ok<T = Record<string, unknown>>(colony: Colony, tool: string, args: unknown): Promise<T> {
  const outcome = await colony.handleToolCall(tool, args);
  if (!outcome.ok) throw new Error(`${tool}: ${outcome.text}`);
  return outcome.value as T;
}

const CONTENT = 'Receipts ride along in the next write transaction instead of taking the lock again.';

describe('the write path of a fresh colony', () => {
  it('posts without loading the tokenizer on the calling thread, and refines the estimate after', async () => {
    const colony = open();
    const thread = await ok<{ task_id: number }>(colony, 'task_thread', {
      repo_root: '/abs/repo',
      branch: 'main',
      session_id: 's1',
      agent: 'codex',
    });
    const post = await ok<{ id: number }>(colony, 'task_post', {
      task_id: thread.task_id,
      session_id: 's1',
      kind: 'note',
      content: CONTENT,
    });
    expect(colony.tokens.ready?.()).toBe(false);
    await colony.close();
    const store = openStore({ path: colony.dbPath });
    try {
      expect(getObservation(store, post.id)?.tokenCount).toBe(createTokenCounter().count(CONTENT));
      const receipts = listReceipts(store, 0);
      expect(receipts.map((r) => r.operation)).toEqual(['task_thread', 'task_post']);
      expect(receipts.every((r) => r.inputTokens > 0 && r.outputTokens > 0)).toBe(true);
    } finally {
      store.close();
    }
  });

  it('lets a read call see the receipts of every earlier call', async () => {
    const colony = open();
    await ok(colony, 'task_thread', { repo_root: '/abs/repo', branch: 'main', session_id: 's1', agent: 'codex' });
    await ok(colony, 'task_ready_for_agent', { session_id: 's1', agent: 'codex' });
    // task_list counts this session's task_ready_for_agent calls: no browsing warning after one.
    const list = await ok<{ coordination_warning?: string }>(colony, 'task_list', { session_id: 's1' });
    expect(list.coordination_warning).toBeUndefined();
  });
});

/**
 * Optional parts degrade their own feature with a clear warning; they never take the
 * server down. Here: a malformed settings.json and a tokenizer that cannot load.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { listReceipts } from '@swarm/storage';
import { describe, expect, it } from 'vitest';
import { openTestStore } from './_backend';
import { startServer, tempDir } from './_harness';

describe('a server whose optional parts cannot load', () => {
  it('serves every call, warns on stderr, and falls back to estimated token counts', async () => {
    const home = tempDir('colony-degraded-');
    writeFileSync(join(home, 'settings.json'), '{ "search": { "alpha": 7 }, ');
    const db = join(home, 'colony.db');
    const server = await startServer({
      db,
      home,
      env: { COLONY_TOKENIZER_MODULE: join(home, 'no-such-tokenizer.cjs') },
    });
    try {
      const thread = await server.call('task_thread', {
        repo_root: '/abs/repo',
        branch: 'main',
        session_id: 'claude-1',
        agent: 'claude',
      });
      expect(thread.isError).toBe(false);
      const post = await server.call('task_post', {
        task_id: thread.payload.task_id,
        session_id: 'claude-1',
        kind: 'note',
        content: 'still works without a tokenizer',
      });
      expect(post.isError).toBe(false);
      const hits = await server.call('search', { query: 'tokenizer' });
      expect(hits.payload).toHaveLength(1);
      expect(server.stderr()).toMatch(/warning: settings: .*settings\.json is not valid JSON.*using defaults/);
      expect(server.stderr()).toMatch(/warning: tokenizer unavailable .*token counts are estimates/);
    } finally {
      await server.close();
    }
    const store = await openTestStore(db);
    try {
      const receipts = await listReceipts(store, 0);
      expect(receipts.length).toBeGreaterThanOrEqual(3);
      expect(receipts.every((r) => r.inputTokens > 0 && r.outputTokens > 0)).toBe(true);
    } finally {
      await store.close();
    }
  });
});

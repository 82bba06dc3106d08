/**
 * Cold processes at once, through the built colony-mcp over stdio: a fleet of fresh
 * servers on one store that does not exist yet (so their first calls also race to
 * create and migrate it) make their first write call at the same moment. Every call
 * succeeds: no INTERNAL_ERROR ("database is locked"), no STORE_BUSY. The 64-process
 * version of this probe, with its timings, is `pnpm bench -- --only store-writepath`.
 */
import { join } from 'node:path';
import { listReceipts } from '@swarm/storage';
import { afterEach, describe, expect, it } from 'vitest';
import { openTestStore } from './_backend';
import { type CallResult, serverFleet, tempDir } from './_harness';
import { storeOpened } from './_store-probe';

const PROCESSES = 16;
const fleet = serverFleet();
afterEach(() => fleet.closeAll());

describe('cold colony-mcp processes on one fresh store', () => {
  it(`answers all ${PROCESSES} first write calls made at once without an error`, { timeout: 120_000 }, async () => {
    const home = tempDir('colony-cold-');
    const db = join(home, 'colony.db');
    const repo = tempDir('colony-cold-repo-');
    // The handshake is answered from build-time data: the store is opened by the first call.
    const servers = await Promise.all(Array.from({ length: PROCESSES }, () => fleet.start(db, home)));
    expect(storeOpened(db)).toBe(false);

    const answers: CallResult[] = await Promise.all(
      servers.map((server, i) =>
        server.call('task_thread', { repo_root: repo, branch: 'main', session_id: `cold-${i}`, agent: 'codex' }),
      ),
    );

    const errors = answers.filter((a) => a.isError).map((a) => a.text);
    expect(errors).toEqual([]);
    expect(new Set(answers.map((a) => a.payload.task_id)).size).toBe(1);
    await fleet.closeAll();
    const store = await openTestStore(db);
    try {
      expect((await listReceipts(store, 0)).filter((r) => r.operation === 'task_thread' && r.ok)).toHaveLength(
        PROCESSES,
      );
    } finally {
      await store.close();
    }
  });
});

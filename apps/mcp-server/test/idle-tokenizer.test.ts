/**
 * An idle server holds no tokenizer: receipts are counted on a worker thread that stops
 * about a second after its last count (WORKER_IDLE_MS) and starts again when counts are
 * due; counts made by a restarted worker still reach the receipts.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { listReceipts, openStore } from '@swarm/storage';
import { afterEach, expect, it } from 'vitest';
import { SERVER_MAIN, tempDir } from './_harness';
import { rawServer } from './_raw-stdio';

const servers: Array<ReturnType<typeof rawServer>> = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.stop()));
});

const threadCount = (pid: number) => readdirSync(`/proc/${pid}/task`).length;

/** Samples the thread count every 50 ms until `done` says so, or `ms` pass; the samples. */
async function sampleThreads(pid: number, ms: number, done: (counts: number[]) => boolean): Promise<number[]> {
  const counts: number[] = [];
  for (const end = Date.now() + ms; Date.now() < end && !done(counts); ) {
    counts.push(threadCount(pid));
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return counts;
}

const grewThenShrank = (counts: number[]) => counts.length > 0 && counts.at(-1)! < Math.max(...counts);

it.runIf(process.platform === 'linux')(
  'stops the token worker while idle and restarts it for later calls',
  async () => {
    const home = tempDir('colony-idle-tokens-');
    const db = join(home, 'colony.db');
    const server = rawServer([SERVER_MAIN, '--db', db], home);
    servers.push(server);
    const pid = server.child.pid as number;
    await server.request('initialize', {
      protocolVersion: '2025-06-18',
      capabilities: {},
      clientInfo: { name: 't', version: '0' },
    });
    server.notify('notifications/initialized');
    const call = (name: string, args: Record<string, unknown>) =>
      server.request('tools/call', { name, arguments: args }) as Promise<{ result: { content: { text: string }[] } }>;
    const thread = JSON.parse(
      (await call('task_thread', { repo_root: '/abs/repo', branch: 'main', session_id: 's1', agent: 'codex' })).result
        .content[0].text,
    );
    // The worker starts after the answer, counts, and stops once idle (a generous bound for a busy machine).
    expect(grewThenShrank(await sampleThreads(pid, 12_000, grewThenShrank))).toBe(true);
    await call('task_post', {
      task_id: thread.task_id,
      session_id: 's1',
      kind: 'note',
      content: 'counted by a new worker',
    });
    expect(grewThenShrank(await sampleThreads(pid, 12_000, grewThenShrank))).toBe(true);
    await server.stop();
    const store = openStore({ path: db });
    try {
      const receipts = listReceipts(store, 0);
      expect(receipts.map((r) => r.operation)).toEqual(['task_thread', 'task_post']);
      expect(receipts.every((r) => r.inputTokens > 0 && r.outputTokens > 0)).toBe(true);
    } finally {
      store.close();
    }
  },
);

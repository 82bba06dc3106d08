/**
 * An idle server holds no tokenizer: receipts are counted in a child process that exits
 * about a second after its last count (WORKER_IDLE_MS), starts again when counts are
 * due, and exits with the server when the server is killed; counts made by a restarted
 * child still reach the receipts, and the server's own thread count never grows.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { listReceipts, openStore } from '@swarm/storage';
import { afterEach, expect, it } from 'vitest';
import { SERVER_MAIN, tempDir } from './_harness';
import { rawServer } from './_raw-stdio';

const servers: Array<ReturnType<typeof rawServer>> = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.stop()));
});

/** The live (not zombie) processes whose parent is `pid`. */
function childrenOf(pid: number): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const [state, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(ppid) === pid && state !== 'Z') found.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

const alive = (pid: number) => {
  try {
    return !readFileSync(`/proc/${pid}/stat`, 'utf8').includes(') Z ');
  } catch {
    return false;
  }
};

/** Samples the server's children every 50 ms until one came and all went, or `ms` pass. */
async function childCameAndWent(pid: number, ms: number): Promise<boolean> {
  let seen = false;
  for (const end = Date.now() + ms; Date.now() < end; ) {
    const now = childrenOf(pid).length;
    if (now > 0) seen = true;
    else if (seen) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return false;
}

async function started() {
  const home = tempDir('colony-idle-tokens-');
  const db = join(home, 'colony.db');
  const server = rawServer([SERVER_MAIN, '--db', db], home);
  servers.push(server);
  await server.request('initialize', {
    protocolVersion: '2025-06-18',
    capabilities: {},
    clientInfo: { name: 't', version: '0' },
  });
  server.notify('notifications/initialized');
  const call = (name: string, args: Record<string, unknown>) =>
    server.request('tools/call', { name, arguments: args }) as Promise<{ result: { content: { text: string }[] } }>;
  return { db, server, pid: server.child.pid as number, call };
}

const THREAD = { repo_root: '/abs/repo', branch: 'main', session_id: 's1', agent: 'codex' };

it.runIf(process.platform === 'linux')(
  'counts in a child process that exits while idle and starts again for later calls',
  async () => {
    const { db, server, pid, call } = await started();
    const threads = () => readdirSync(`/proc/${pid}/task`).length;
    const before = threads();
    const thread = JSON.parse((await call('task_thread', THREAD)).result.content[0].text);
    // The child starts after the answer, counts, and exits once idle (a generous bound for a busy machine).
    expect(await childCameAndWent(pid, 12_000)).toBe(true);
    await call('task_post', { task_id: thread.task_id, session_id: 's1', kind: 'note', content: 'counted anew' });
    expect(await childCameAndWent(pid, 12_000)).toBe(true);
    expect(threads()).toBe(before);
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

it.runIf(process.platform === 'linux')('the counting child exits when its server is killed', async () => {
  const { server, pid, call } = await started();
  await call('task_thread', THREAD);
  let children: number[] = [];
  for (const end = Date.now() + 10_000; children.length === 0 && Date.now() < end; ) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    children = childrenOf(pid);
  }
  expect(children).toHaveLength(1);
  servers.splice(servers.indexOf(server), 1);
  const exited = new Promise((resolve) => server.child.once('exit', resolve));
  server.child.kill('SIGKILL');
  await exited;
  const child = children[0] as number;
  for (const end = Date.now() + 10_000; alive(child) && Date.now() < end; ) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  expect(alive(child)).toBe(false);
});

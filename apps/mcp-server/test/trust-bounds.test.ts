/**
 * Issue 12 section 3, through a real colony-mcp process over stdio: a refused call
 * neither grows the store nor echoes megabytes; every mutating tool takes an
 * idempotency key (a retried send_message_to_agent stores one message); an id with a
 * lone surrogate is refused at the schema (never INTERNAL_ERROR); every request with
 * an id is answered (an oversize line, a tools/call with `"params": null`).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { listReceipts } from '@swarm/storage';
import { ERROR_CODES } from '@swarm/tools';
import { afterEach, describe, expect, it } from 'vitest';
import { psqlQuery } from '../../../test/support/pg-cluster.mjs';
import { dbFor, ON_POSTGRES, openTestStore } from './_backend';
import { REPO_ROOT, SERVER_MAIN, type Server, startServer, tempDir } from './_harness';

const servers: Server[] = [];
const children: ChildProcess[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
  for (const child of children.splice(0)) child.kill('SIGTERM');
});

async function start(toolset: 'all' | 'framework' = 'all') {
  const dir = tempDir();
  const db = join(dir, 'colony.db');
  const server = await startServer({ db, home: dir, toolset });
  servers.push(server);
  return { server, db };
}

/** Receipts as stored, once the server's deferred writes have landed. */
async function receiptsOf(db: string, atLeast: number) {
  const store = await openTestStore(db);
  try {
    for (let i = 0; i < 100; i++) {
      const rows = await listReceipts(store, 0);
      if (rows.length >= atLeast) return rows;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return await listReceipts(store, 0);
  } finally {
    await store.close();
  }
}

/** The store's size on disk: its file and WAL, or its PostgreSQL database. */
const storeBytes = (db: string) =>
  ON_POSTGRES
    ? Number(psqlQuery(dbFor(db), 'SELECT pg_database_size(current_database())'))
    : [db, `${db}-wal`].reduce((sum, file) => {
        try {
          return sum + statSync(file).size;
        } catch {
          return sum;
        }
      }, 0);

const textOf = (result: { content: unknown }) => (result.content as Array<{ text: string }>)[0]!.text;

describe('refused calls are bounded', () => {
  it('five calls to an unknown tool with a 5 MB name keep small receipts and small answers', async () => {
    const { server, db } = await start();
    await server.call('search', { query: 'warm up' });
    const before = storeBytes(db);
    const name = 'x'.repeat(5 * 1024 * 1024);
    for (let i = 0; i < 5; i++) {
      const result = await server.client.callTool({ name, arguments: { session_id: 's'.repeat(100_000) } });
      expect(result.isError).toBe(true);
      const text = textOf(result);
      expect(text.length).toBeLessThan(8_192);
      expect(JSON.parse(text).code).toBe('UNKNOWN_TOOL');
    }
    const receipts = await receiptsOf(db, 6);
    const refused = receipts.filter((r) => r.errorCode === 'UNKNOWN_TOOL');
    expect(refused).toHaveLength(5);
    for (const r of refused) {
      expect(r.operation.length).toBeLessThanOrEqual(64);
      expect((r.sessionId ?? '').length).toBeLessThanOrEqual(200);
      expect((r.errorMessage ?? '').length).toBeLessThanOrEqual(1_000);
    }
    await server.close();
    expect(storeBytes(db) - before).toBeLessThan(1024 * 1024);
  }, 30_000);
});

describe('every mutating tool takes an idempotency key', () => {
  it('a retried send_message_to_agent stores one message', async () => {
    const { server } = await start('framework');
    const args = {
      from_agent: 'TaskManager',
      to_agent: 'DataProcessor',
      message: 'process the file',
      idempotency_key: 'send-1',
    };
    const first = await server.call('send_message_to_agent', args);
    expect(first.isError, first.text).toBe(false);
    const retry = await server.call('send_message_to_agent', args);
    expect(retry.payload).toEqual(first.payload);
    const inbox = await server.call('get_messages_from_agents', { agent_name: 'DataProcessor' });
    expect(inbox.payload.count).toBe(1);
  });

  it('every mutating tool of every toolset accepts idempotency_key', async () => {
    const { COLONY_TOOLS } = await import('@swarm/tools');
    const missing = COLONY_TOOLS.filter((t) => t.mutates && !('idempotency_key' in t.input.shape)).map((t) => t.name);
    expect(missing).toEqual([]);
  });
});

describe('ill-formed ids', () => {
  it('refuses a session_id with a lone surrogate at the schema, never INTERNAL_ERROR', async () => {
    const { server } = await start();
    const session = 'x\ud800y';
    const thread = await server.call('task_thread', {
      repo_root: '/abs/repo',
      branch: 'main',
      session_id: session,
      agent: 'codex',
    });
    expect(thread.isError).toBe(true);
    expect(thread.payload.code).toBe('INVALID_PARAMETERS');
    expect(thread.payload.fields).toEqual(['session_id']);
    const note = await server.call('task_note_working', { session_id: session, content: 'working' });
    expect(note.payload.code).toBe('INVALID_PARAMETERS');
    const post = await server.call('task_post', { task_id: 1, session_id: session, kind: 'note', content: 'hi' });
    expect(post.payload.code).toBe('INVALID_PARAMETERS');
    for (const r of [thread, note, post]) expect(ERROR_CODES).toContain(r.payload.code);
  });
});

/** A colony-mcp process spoken to line by line. */
function rawServer() {
  const dir = tempDir();
  const child = spawn(process.execPath, [SERVER_MAIN, '--db', dbFor(join(dir, 'colony.db'))], {
    cwd: REPO_ROOT,
    env: { ...process.env, COLONY_HOME: dir },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  children.push(child);
  const lines: Array<Record<string, unknown>> = [];
  let pending = '';
  let wake: (() => void) | undefined;
  child.stdout!.on('data', (chunk: Buffer) => {
    pending += chunk.toString();
    for (let n = pending.indexOf('\n'); n !== -1; n = pending.indexOf('\n')) {
      lines.push(JSON.parse(pending.slice(0, n)));
      pending = pending.slice(n + 1);
    }
    wake?.();
  });
  return {
    send: (text: string) => child.stdin!.write(text),
    /** The answer with this id (null: the first answer with id null), or a timeout. */
    async answer(id: string | number | null, ms = 5_000): Promise<Record<string, unknown>> {
      const deadline = Date.now() + ms;
      for (;;) {
        const found = lines.find((l) => l.id === id);
        if (found) return found;
        if (Date.now() > deadline) throw new Error(`no answer with id ${id} within ${ms} ms`);
        await new Promise<void>((resolve) => {
          wake = resolve;
          setTimeout(resolve, 100);
        });
      }
    },
  };
}

const line = (message: unknown) => `${JSON.stringify(message)}\n`;
const initialize = {
  jsonrpc: '2.0',
  id: 0,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
};

describe('every stdio request with an id is answered', () => {
  it('answers a tools/call line over 10 MiB with a coded tool error, then keeps serving', async () => {
    const { server } = await start();
    const result = await server.client.callTool(
      { name: 'search', arguments: { query: 'q'.repeat(11 * 1024 * 1024) } },
      undefined,
      { timeout: 10_000 },
    );
    expect(result.isError).toBe(true);
    const payload = JSON.parse(textOf(result));
    expect(payload.code).toBe('INVALID_PARAMETERS');
    expect(payload.tool).toBe('search');
    const alive = await server.call('search', { query: 'anything' });
    expect(alive.isError).toBe(false);
  }, 30_000);

  it('answers an oversize line whose id is unknowable with id null, and one with its id up front', async () => {
    const io = rawServer();
    io.send(line(initialize));
    await io.answer(0);
    io.send(`{"jsonrpc":"2.0","id":7,"method":"ping","params":{"x":"${'a'.repeat(11 * 1024 * 1024)}"}}\n`);
    expect((await io.answer(7, 10_000)).error).toMatchObject({ code: -32600 });
    io.send(`["${'b'.repeat(11 * 1024 * 1024)}"]\n`);
    expect((await io.answer(null, 10_000)).error).toMatchObject({ code: -32600 });
    io.send(line({ jsonrpc: '2.0', id: 8, method: 'ping' }));
    expect(await io.answer(8)).toMatchObject({ result: {} });
  }, 30_000);

  it('answers a tools/call with "params": null with an error carrying its id', async () => {
    const io = rawServer();
    io.send(line(initialize));
    await io.answer(0);
    io.send(line({ jsonrpc: '2.0', method: 'notifications/initialized' }));
    io.send(line({ jsonrpc: '2.0', id: 'call-1', method: 'tools/call', params: null }));
    expect((await io.answer('call-1')).error).toMatchObject({ code: -32602 });
    io.send(line({ jsonrpc: '2.0', id: 'call-2', method: 'tools/call', params: { name: 'search', arguments: null } }));
    expect(await io.answer('call-2')).toHaveProperty('error');
    io.send(
      line({
        jsonrpc: '2.0',
        id: 'call-3',
        method: 'tools/call',
        params: { name: 'search', arguments: { query: 'x' } },
      }),
    );
    expect(await io.answer('call-3')).toHaveProperty('result');
  }, 20_000);
});

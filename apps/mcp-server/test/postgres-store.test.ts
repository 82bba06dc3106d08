/**
 * colony-mcp on PostgreSQL (the `mcp-server-pg` project; skipped on SQLite): `--db
 * postgres://…` or `$COLONY_DATABASE_URL` serves every call from the database (rows
 * checked with psql, another process), a server that cannot be reached answers
 * STORE_UNREACHABLE without the password and keeps serving, and sixteen writer
 * processes posting 200 notes each on one task lose none (a post refused STORE_BUSY, which
 * writes nothing, is retried as the contract says) and write none twice.
 */
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterEach, describe, expect, it } from 'vitest';
import { psqlQuery } from '../../../test/support/pg-cluster.mjs';
import { dbFor, ON_POSTGRES } from './_backend';
import { REPO_ROOT, SERVER_MAIN, serverFleet, tempDir } from './_harness';

const REPO = '/abs/pg-repo';
const WRITERS = 16;
const POSTS = 200;

const count = (url: string, sql: string) => Number(psqlQuery(url, sql));

describe.skipIf(!ON_POSTGRES)('colony-mcp on a PostgreSQL store', () => {
  const { start, closeAll } = serverFleet();
  afterEach(closeAll);

  it('serves calls from the database --db names: what it writes is in PostgreSQL', async () => {
    const dir = tempDir();
    const db = join(dir, 'colony.db');
    const server = await start(db, dir);
    const thread = await server.call('task_thread', {
      repo_root: REPO,
      branch: 'main',
      session_id: 's1',
      agent: 'claude',
    });
    expect(thread.isError).toBe(false);
    const post = await server.call('task_post', {
      task_id: thread.payload.task_id,
      session_id: 's1',
      kind: 'decision',
      content: 'parser moves to a streaming tokenizer',
    });
    expect(post.isError).toBe(false);
    const hits = await server.call('search', { query: 'streaming tokenizer', limit: 5 });
    expect(hits.payload.map((h: { id: number }) => h.id)).toContain(post.payload.id);
    const status = await server.call('task_list', {});
    expect(status.isError).toBe(false);
    const url = dbFor(db);
    expect(count(url, `SELECT count(*) FROM observations WHERE id = ${post.payload.id}`)).toBe(1);
    expect(count(url, 'SELECT count(*) FROM tasks')).toBe(1);
  });

  it('takes $COLONY_DATABASE_URL when neither --db nor --home is given', async () => {
    const url = dbFor(join(tempDir(), 'env.db'));
    const env = { ...process.env, COLONY_DATABASE_URL: url, COLONY_HOME: tempDir('colony-pg-env-home-') };
    const transport = new StdioClientTransport({ command: process.execPath, args: [SERVER_MAIN], cwd: REPO_ROOT, env });
    const client = new Client({ name: 'colony-test', version: '0.0.0' });
    await client.connect(transport);
    try {
      const result = await client.callTool({
        name: 'task_thread',
        arguments: { repo_root: REPO, branch: 'env', session_id: 's-env', agent: 'codex' },
      });
      expect(result.isError).not.toBe(true);
      expect(psqlQuery(url, 'SELECT branch FROM tasks')).toBe('env');
    } finally {
      await client.close();
    }
  });

  it('answers STORE_UNREACHABLE without the password when the server cannot be reached, and keeps serving', async () => {
    const url = 'postgresql://colony:hunter2@127.0.0.1:9/colony';
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [SERVER_MAIN, '--db', url],
      cwd: REPO_ROOT,
      env: { ...process.env, COLONY_HOME: tempDir('colony-pg-down-home-') } as Record<string, string>,
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const client = new Client({ name: 'colony-test', version: '0.0.0' });
    await client.connect(transport);
    try {
      for (const name of ['task_list', 'task_post']) {
        const result = await client.callTool({ name, arguments: {} });
        const text = (result.content as Array<{ text: string }>)[0]?.text ?? '';
        expect(result.isError).toBe(true);
        expect(JSON.parse(text).code).toBe('STORE_UNREACHABLE');
        expect(text).not.toContain('hunter2');
      }
      expect(stderr).not.toContain('hunter2');
    } finally {
      await client.close();
    }
  });

  it(`loses nothing when ${WRITERS} server processes post ${POSTS} notes each on one task`, async () => {
    const dir = tempDir();
    const db = join(dir, 'writers.db');
    const servers = await Promise.all(Array.from({ length: WRITERS }, () => start(db, dir)));
    const thread = await servers[0]!.call('task_thread', {
      repo_root: REPO,
      branch: 'writers',
      session_id: 'w0',
      agent: 'claude',
    });
    const taskId = thread.payload.task_id as number;
    let busyRetries = 0;
    const ids = await Promise.all(
      servers.map(async (server, w) => {
        const mine: number[] = [];
        await server.call('task_thread', { repo_root: REPO, branch: 'writers', session_id: `w${w}`, agent: 'codex' });
        for (let i = 0; i < POSTS; i++) {
          const args = { task_id: taskId, session_id: `w${w}`, kind: 'note', content: `writer ${w} note ${i}` };
          let answer = await server.call('task_post', args);
          // STORE_BUSY wrote nothing and says so (retryable): a client following the contract retries.
          for (let retry = 0; answer.isError && answer.payload.code === 'STORE_BUSY' && retry < 5; retry++) {
            busyRetries++;
            answer = await server.call('task_post', args);
          }
          expect(answer.isError, answer.text).toBe(false);
          mine.push(answer.payload.id);
        }
        return mine;
      }),
    );
    expect(new Set(ids.flat()).size).toBe(WRITERS * POSTS);
    const url = dbFor(db);
    expect(count(url, `SELECT count(*) FROM observations WHERE task_id = ${taskId} AND kind = 'note'`)).toBe(
      WRITERS * POSTS,
    );
    for (const server of servers) expect(server.stderr()).not.toMatch(/internal error|deadlock/i);
    // Each note exactly once: a refused try left nothing behind. How often the lock wait ran out:
    if (busyRetries > 0) console.info(`[16 writers x 200] ${busyRetries} STORE_BUSY answers retried`);
  }, 480_000);
});

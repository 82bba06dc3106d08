/**
 * Stores in odd states, through the real server over stdio: a read-only store serves
 * reads and refuses writes (STORE_READ_ONLY); a file that is not a database, or is
 * truncated, answers every call STORE_CORRUPT naming the file while the server keeps
 * serving; a store written by a newer colony serves reads and refuses writes
 * (STORE_TOO_NEW, naming both versions); a lock held past the busy timeout answers
 * STORE_BUSY (retryable), never INTERNAL_ERROR; a write the store refuses by a
 * constraint is the caller's INVALID_PARAMETERS, never INTERNAL_ERROR, and leaves nothing;
 * a PostgreSQL URL as `--db` whose server cannot be reached answers STORE_UNREACHABLE without
 * the password, never a file store.
 */
import { chmodSync, existsSync, readFileSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { type CallResult, REPO_ROOT, SERVER_MAIN, startServer, tempDir } from './_harness';

const NOBODY = 65534;
const isRoot = process.getuid?.() === 0;

interface Proc {
  call(name: string, args?: Record<string, unknown>): Promise<CallResult>;
  stderr(): string;
  close(): Promise<void>;
}
const open: Proc[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((p) => p.close()));
});

/**
 * A server that cannot write the store: as root (who can write any file) it runs as
 * `nobody` through setpriv; otherwise file modes alone make the store read-only.
 */
async function startAs(db: string, home: string, env: Record<string, string> = {}, asNobody = false): Promise<Proc> {
  const base = [SERVER_MAIN, '--db', db];
  const [command, args] =
    asNobody && isRoot
      ? ['setpriv', [`--reuid=${NOBODY}`, `--regid=${NOBODY}`, '--clear-groups', process.execPath, ...base]]
      : [process.execPath, base];
  const fullEnv: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined) fullEnv[k] = v;
  Object.assign(fullEnv, { COLONY_HOME: home }, env);
  const transport = new StdioClientTransport({ command, args, cwd: REPO_ROOT, env: fullEnv, stderr: 'pipe' });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const client = new Client({ name: 'colony-test', version: '0.0.0' });
  await client.connect(transport);
  const proc: Proc = {
    async call(name, callArgs = {}) {
      const result = await client.callTool({ name, arguments: callArgs });
      const text = (result.content as Array<{ text: string }>)[0]?.text ?? '';
      return { isError: result.isError === true, payload: JSON.parse(text), text };
    },
    stderr: () => stderr,
    close: () => client.close(),
  };
  open.push(proc);
  return proc;
}

/** A store with one thread, one post, closed cleanly (no -wal/-shm left beside it). */
async function seeded(): Promise<{ dir: string; db: string; home: string; taskId: number }> {
  const dir = tempDir('colony-states-');
  const home = tempDir('colony-states-home-');
  const db = join(dir, 'colony.db');
  const server = await startServer({ db, home });
  const thread = await server.call('task_thread', {
    repo_root: '/abs/repo',
    branch: 'main',
    session_id: 's1',
    agent: 'codex',
  });
  await server.call('task_post', {
    task_id: thread.payload.task_id,
    session_id: 's1',
    kind: 'note',
    content: 'seeded note about lanterns',
  });
  await server.close();
  await waitFor(() => statSizeOr0(`${db}-wal`) === 0);
  for (const d of [dir, home]) chmodSync(d, 0o755);
  return { dir, db, home, taskId: thread.payload.task_id };
}

function statSizeOr0(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}

async function waitFor(ok: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!ok() && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
}

const post = (taskId: number) => ({ task_id: taskId, session_id: 's1', kind: 'note', content: 'a second note' });

describe('a read-only store', () => {
  it('serves reads and refuses writes with STORE_READ_ONLY when the file is not writable', async () => {
    const { dir, db, home, taskId } = await seeded();
    chmodSync(dir, 0o777); // the folder is writable (SQLite may keep its -shm there); the file is not
    chmodSync(db, 0o444);
    const server = await startAs(db, home, {}, true);
    const list = await server.call('task_list', {});
    expect(list.isError).toBe(false);
    expect(list.payload.tasks.map((t: { id: number }) => t.id)).toContain(taskId);
    const hits = await server.call('search', { query: 'lanterns' });
    expect(hits.isError).toBe(false);
    expect(hits.payload).toHaveLength(1);
    const write = await server.call('task_post', post(taskId));
    expect(write.isError).toBe(true);
    expect(write.payload).toMatchObject({ code: 'STORE_READ_ONLY', db_path: db });
    expect(write.payload.error).toContain(db);
    // still serving
    expect((await server.call('task_list', {})).isError).toBe(false);
  });

  it('serves reads of a store in a read-only folder (no -shm beside it), refusing writes', async () => {
    const { dir, db, home, taskId } = await seeded();
    chmodSync(db, 0o444);
    chmodSync(dir, 0o555);
    try {
      const server = await startAs(db, home, {}, true);
      const hits = await server.call('search', { query: 'lanterns' });
      expect(hits.isError).toBe(false);
      expect(hits.payload).toHaveLength(1);
      const write = await server.call('task_post', post(taskId));
      expect(write.payload.code).toBe('STORE_READ_ONLY');
    } finally {
      chmodSync(dir, 0o755);
    }
  });
});

describe('a corrupt store', () => {
  it('answers every call STORE_CORRUPT naming the file and what to do, and keeps serving', async () => {
    const dir = tempDir('colony-corrupt-');
    const db = join(dir, 'colony.db');
    writeFileSync(db, 'this is a text file, not a database '.repeat(200));
    const server = await startAs(db, tempDir('colony-corrupt-home-'));
    for (const tool of ['task_list', 'task_post']) {
      const answer = await server.call(tool, {});
      expect(answer.isError).toBe(true);
      expect(answer.payload).toMatchObject({ code: 'STORE_CORRUPT', db_path: db });
      expect(answer.payload.error).toContain(db);
      expect(answer.payload.error).toMatch(/backup/);
    }
    expect(readFileSync(db, 'utf8')).toMatch(/^this is a text file/); // left as it was
  });

  it('answers STORE_CORRUPT for a truncated store', async () => {
    const { db, home } = await seeded();
    truncateSync(db, Math.floor(statSync(db).size / 2));
    const server = await startAs(db, home);
    const answer = await server.call('task_list', {});
    expect(answer.payload.code).toBe('STORE_CORRUPT');
    expect(answer.payload.error).toMatch(/truncated|not a readable/);
  });
});

describe('a PostgreSQL URL as the store', () => {
  it('answers every call STORE_UNREACHABLE without the password when no server listens, and opens no file named like the URL', async () => {
    const url = 'postgresql://colony:hunter2@127.0.0.1:9/colony';
    const server = await startAs(url, tempDir('colony-pg-url-home-'));
    for (const tool of ['task_list', 'task_post']) {
      const answer = await server.call(tool, {});
      expect(answer.isError).toBe(true);
      expect(answer.payload.code).toBe('STORE_UNREACHABLE');
      expect(answer.payload.error).toMatch(/127\.0\.0\.1:9/);
      expect(answer.text).not.toContain('hunter2');
    }
    // The server's cwd is the repository: a file store "postgresql:/colony:hunter2@127.0.0.1:9/colony" would be there.
    expect(existsSync(join(REPO_ROOT, 'postgresql:'))).toBe(false);
  });
});

describe('a store written by a newer colony', () => {
  it('serves reads and refuses writes with STORE_TOO_NEW naming both schema versions', async () => {
    const { db, home, taskId } = await seeded();
    const sqlite = new Database(db);
    const { n, last } = sqlite
      .prepare('SELECT count(*) AS n, max(created_at) AS last FROM __drizzle_migrations')
      .get() as { n: number; last: number };
    sqlite
      .prepare('INSERT INTO __drizzle_migrations (hash, created_at) VALUES (?, ?)')
      .run('future', Number(last) + 1000);
    sqlite.close();
    const server = await startAs(db, home);
    expect((await server.call('search', { query: 'lanterns' })).payload).toHaveLength(1);
    const write = await server.call('task_post', post(taskId));
    expect(write.payload).toMatchObject({
      code: 'STORE_TOO_NEW',
      store_schema_version: n + 1,
      colony_schema_version: n,
    });
    expect(write.payload.error).toContain(`store schema version ${n + 1}`);
    expect(write.payload.error).toContain(`schema version ${n}`);
  });
});

describe('a store locked by another writer', () => {
  it('answers STORE_BUSY with retry_after_ms when the lock outlasts the busy timeout, then writes', async () => {
    const { db, home, taskId } = await seeded();
    const server = await startAs(db, home, { COLONY_BUSY_TIMEOUT_MS: '300' });
    expect((await server.call('task_list', {})).isError).toBe(false);
    const holder = new Database(db);
    holder.exec('BEGIN IMMEDIATE');
    try {
      const write = await server.call('task_post', post(taskId));
      expect(write.payload).toMatchObject({ code: 'STORE_BUSY', retryable: true });
      expect(write.payload.retry_after_ms).toBeGreaterThan(0);
    } finally {
      holder.exec('ROLLBACK');
      holder.close();
    }
    const retry = await server.call('task_post', post(taskId));
    expect(retry.isError).toBe(false);
    expect(server.stderr()).not.toMatch(/internal error in task_post/);
  });
});

describe('a store that refuses a write by a constraint', () => {
  it('answers INVALID_PARAMETERS naming the constraint, writes nothing, and keeps serving', async () => {
    const { db, home, taskId } = await seeded();
    // A constraint of the store that no tool schema knows of (as a store with stricter
    // rules, or one edited by hand, has): SQLite refuses the row with SQLITE_CONSTRAINT_TRIGGER.
    const admin = new Database(db);
    admin.exec(`CREATE TRIGGER refuse_forbidden BEFORE INSERT ON observations
      WHEN NEW.content LIKE '%forbidden%' BEGIN SELECT RAISE(ABORT, 'forbidden content'); END`);
    const count = () => (admin.prepare('SELECT count(*) AS n FROM observations').get() as { n: number }).n;
    const server = await startAs(db, home);
    try {
      const before = count();
      const refused = await server.call('task_post', { ...post(taskId), content: 'a forbidden note' });
      expect(refused.isError, refused.text).toBe(true);
      expect(refused.payload).toMatchObject({ code: 'INVALID_PARAMETERS', constraint: 'SQLITE_CONSTRAINT_TRIGGER' });
      expect(refused.payload.error).toContain('forbidden content');
      expect(count()).toBe(before);
      const next = await server.call('task_post', post(taskId));
      expect(next.isError, next.text).toBe(false);
      expect(count()).toBe(before + 1);
      expect(server.stderr()).not.toMatch(/internal error/i);
    } finally {
      admin.close();
    }
  });
});

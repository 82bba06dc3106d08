/**
 * idempotency_key on the async runtime tools, over the real MCP SDK client against a real
 * git repository: a retry replays the first answer without running the command again,
 * other arguments are IDEMPOTENCY_KEY_REUSED, two server processes on one store run a
 * keyed command once, and an error answer is not stored (a retry runs).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { removeRepos, tempRepo } from './_git';
import { type Server, serverFleet, tempDir } from './_harness';

const fleet = serverFleet();
afterEach(async () => {
  await fleet.closeAll();
  removeRepos();
});

const server = (db: string): Promise<Server> => fleet.start(db, undefined, { flags: ['--allow-exec'] });

function lines(file: string): string[] {
  return readFileSync(file, 'utf8').split('\n').filter(Boolean);
}

describe('exec_parallel with idempotency_key', () => {
  it('runs once per key: a retry replays the answer, other arguments are IDEMPOTENCY_KEY_REUSED', async () => {
    const root = tempRepo();
    const out = join(tempDir(), 'out.txt');
    const s = await server(join(tempDir(), 'colony.db'));
    await s.call('workspace_fork', { repo_root: root, names: ['ws-a'] });
    const args = { repo_root: root, workspace_ids: ['ws-a'], commands: `echo ran >> ${out}`, idempotency_key: 'k-1' };
    const first = await s.call('exec_parallel', args);
    expect(first.isError).toBe(false);
    expect(first.payload.summary.succeeded).toBe(1);
    const again = await s.call('exec_parallel', args);
    expect(again.payload).toEqual(first.payload);
    expect(lines(out)).toEqual(['ran']);

    const other = await s.call('exec_parallel', { ...args, commands: `echo other >> ${out}` });
    expect(other.isError).toBe(true);
    expect(other.payload.code).toBe('IDEMPOTENCY_KEY_REUSED');
    expect(lines(out)).toEqual(['ran']);
  });

  it('two server processes on one store calling with one key at once run the command once', async () => {
    const root = tempRepo();
    const out = join(tempDir(), 'out.txt');
    const db = join(tempDir(), 'colony.db');
    const [a, b] = await Promise.all([server(db), server(db)]);
    await a.call('workspace_fork', { repo_root: root, names: ['ws-a'] });
    const args = {
      repo_root: root,
      workspace_ids: ['ws-a'],
      commands: `echo ran >> ${out} && sleep 1`,
      idempotency_key: 'k-race',
    };
    const [ra, rb] = await Promise.all([a.call('exec_parallel', args), b.call('exec_parallel', args)]);
    expect(ra.isError).toBe(false);
    expect(rb.payload).toEqual(ra.payload);
    expect(lines(out)).toEqual(['ran']);
  });

  it('an error answer is not stored: a retry with the key runs once the cause is fixed', async () => {
    const root = tempRepo();
    const out = join(tempDir(), 'out.txt');
    const s = await server(join(tempDir(), 'colony.db'));
    const args = { repo_root: root, workspace_ids: ['ws-b'], commands: `echo ran >> ${out}`, idempotency_key: 'k-2' };
    const failed = await s.call('exec_parallel', args);
    expect(failed.isError).toBe(true);
    expect(failed.payload.code).toBe('WORKSPACE_NOT_FOUND');
    await s.call('workspace_fork', { repo_root: root, names: ['ws-b'] });
    const retry = await s.call('exec_parallel', args);
    expect(retry.isError).toBe(false);
    expect(retry.payload.summary.succeeded).toBe(1);
    expect(lines(out)).toEqual(['ran']);
  });
});

/** The agent tools on a real temp folder: confinement, exact edits, bash in its own process group, colony calls. */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { agentTools, memoryMailbox, type ToolCall } from '../src/index.js';

let dir: string;
let outside: string;
const signal = new AbortController().signal;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'agent-tools-'));
  outside = mkdtempSync(join(tmpdir(), 'agent-outside-'));
  writeFileSync(join(outside, 'secret.txt'), 'top secret\n');
  writeFileSync(join(dir, 'a.txt'), 'one\ntwo\nthree\ntwo\n');
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});

const setup = (extra: Partial<Parameters<typeof agentTools>[0]> = {}) => {
  const mailbox = memoryMailbox(() => 1000);
  const calls: { name: string; args: Record<string, unknown> }[] = [];
  const claims: string[] = [];
  const tools = agentTools({
    worktree: dir,
    agent: 'backend',
    colony_session_id: 'swarm-20261125-a3f2-backend',
    env: { SWARM_AGENT_ID: 'backend', SWARM_SESSION_ID: '20261125-a3f2' },
    mailbox,
    colony: {
      async callTool(name, args) {
        calls.push({ name, args });
        return { ok: true, text: `ok ${name}` };
      },
    },
    colony_tools: [
      {
        name: 'task_plan_claim_subtask',
        description: 'claim',
        input_schema: {
          type: 'object',
          properties: { plan_slug: { type: 'string' }, session_id: { type: 'string' }, agent: { type: 'string' } },
          required: ['plan_slug', 'session_id', 'agent'],
        },
      },
    ],
    claim: async (path) => {
      claims.push(path);
    },
    ...extra,
  });
  let n = 0;
  const run = (name: string, input: Record<string, unknown>) =>
    tools.executor.execute({ id: `t${n++}`, name, input } satisfies ToolCall, { signal });
  return { tools, run, mailbox, calls, claims };
};

describe('agent tools', () => {
  it('offers the built-ins and colony tools without session_id and agent', () => {
    const { tools } = setup();
    expect(tools.schemas.map((s) => s.name)).toEqual([
      'bash',
      'read',
      'write',
      'edit',
      'glob',
      'grep',
      'ask_user',
      'task_plan_claim_subtask',
    ]);
    const colony = tools.schemas.at(-1)!.input_schema;
    expect(Object.keys(colony.properties as object)).toEqual(['plan_slug']);
    expect(colony.required).toEqual(['plan_slug']);
  });

  it('read numbers lines, honours offset and limit', async () => {
    const { run } = setup();
    expect((await run('read', { path: 'a.txt' })).content).toBe('1\tone\n2\ttwo\n3\tthree\n4\ttwo');
    expect((await run('read', { path: 'a.txt', offset: 2, limit: 1 })).content).toBe(
      '2\ttwo\n(4 lines; continue with offset 3)',
    );
    expect(await run('read', { path: 'nope.txt' })).toEqual({ content: 'file not found: nope.txt', is_error: true });
  });

  it('write creates folders and takes a claim; edit needs a unique match unless replace_all', async () => {
    const { run, claims } = setup();
    expect((await run('write', { path: 'src/new.ts', content: 'x' })).content).toBe(
      'wrote 1 bytes to src/new.ts (claimed)',
    );
    expect(readFileSync(join(dir, 'src/new.ts'), 'utf8')).toBe('x');
    const ambiguous = await run('edit', { path: 'a.txt', old_string: 'two', new_string: '2' });
    expect(ambiguous.is_error).toBe(true);
    expect(ambiguous.content).toContain('occurs 2 times');
    expect((await run('edit', { path: 'a.txt', old_string: 'three', new_string: '3' })).is_error).toBeFalsy();
    expect((await run('edit', { path: 'a.txt', old_string: 'two', new_string: '2', replace_all: true })).content).toBe(
      'replaced 2 occurrence(s) in a.txt (claimed)',
    );
    expect(readFileSync(join(dir, 'a.txt'), 'utf8')).toBe('one\n2\n3\n2\n');
    expect((await run('edit', { path: 'a.txt', old_string: 'zzz', new_string: 'y' })).is_error).toBe(true);
    expect(claims).toEqual(['src/new.ts', 'a.txt', 'a.txt']);
  });

  it('refuses .., absolute paths outside, symbolic links and .git', async () => {
    const { run } = setup();
    symlinkSync(outside, join(dir, 'link'));
    symlinkSync(join(outside, 'secret.txt'), join(dir, 'file-link'));
    for (const path of [
      '../x',
      'sub/../../x',
      join(outside, 'secret.txt'),
      'link/secret.txt',
      'file-link',
      '.git/config',
    ]) {
      const read = await run('read', { path });
      expect(read.is_error, path).toBe(true);
      expect(read.content, path).toMatch(/refused|outside/);
      expect((await run('write', { path, content: 'pwned' })).is_error, path).toBe(true);
    }
    expect(readFileSync(join(outside, 'secret.txt'), 'utf8')).toBe('top secret\n');
    expect((await run('read', { path: join(dir, 'a.txt') })).is_error).toBeFalsy();
  });

  it('glob and grep stay in the worktree', async () => {
    const { run } = setup();
    mkdirSync(join(dir, 'src'));
    writeFileSync(join(dir, 'src/b.ts'), 'export const two = 2;\n');
    symlinkSync(outside, join(dir, 'link'));
    expect((await run('glob', { pattern: '**/*.txt' })).content).toBe('a.txt');
    expect((await run('grep', { pattern: 'two' })).content).toBe(
      'a.txt:2:two\na.txt:4:two\nsrc/b.ts:1:export const two = 2;',
    );
    expect((await run('grep', { pattern: 'two', glob: '**/*.ts' })).content).toBe('src/b.ts:1:export const two = 2;');
    expect((await run('grep', { pattern: 'secret' })).content).toBe('no matches for secret');
    expect((await run('glob', { pattern: '../**' })).is_error).toBe(true);
  });

  it('bash runs in the worktree with the SWARM environment, and times out', async () => {
    const { run } = setup();
    const ok = await run('bash', { command: 'pwd; echo $SWARM_AGENT_ID' });
    expect(ok.content).toContain(`exit code 0`);
    expect(ok.content).toContain('backend');
    const slow = await run('bash', { command: 'sleep 5', timeout_secs: 1 });
    expect(slow.is_error).toBe(true);
    expect(slow.content).toContain('timed out');
    expect((await run('bash', { command: 'exit 3' })).content).toBe('exit code 3');
  });

  it('colony calls get session_id and agent; ask_user messages the operator; bad input is an error result', async () => {
    const { run, calls, mailbox } = setup();
    expect((await run('task_plan_claim_subtask', { plan_slug: 'p' })).content).toBe('ok task_plan_claim_subtask');
    expect(calls[0]!.args).toEqual({ plan_slug: 'p', session_id: 'swarm-20261125-a3f2-backend', agent: 'backend' });
    await run('ask_user', { question: 'Which database?' });
    expect(mailbox.messages[0]).toMatchObject({
      from: 'backend',
      to: 'operator',
      body: 'Which database?',
      needs_reply: true,
    });
    expect((await run('write', { path: 'x' })).content).toContain('invalid input for write: content');
    expect((await run('nope', {})).content).toContain('unknown tool nope');
  });
});

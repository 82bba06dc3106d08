/**
 * Arguments a tool does not declare, over the real wire: a colony-mcp process driven by
 * the MCP SDK client. Agents trained on Colony send `agent` to task_claim_file and
 * `session_id`/`agent` to hivemind_context: the call is served, the extra arguments are
 * ignored and named in `ignored_arguments`. Wrong types and missing required fields are
 * still INVALID_PARAMETERS, and nested objects keep their validation.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Server, startServer, tempDir } from './_harness';

const REPO = '/abs/args-repo';
let server: Server;
let taskId: number;

beforeAll(async () => {
  const dir = tempDir();
  server = await startServer({ db: join(dir, 'colony.db'), home: dir });
  const thread = await server.call('task_thread', {
    repo_root: REPO,
    branch: 'main',
    session_id: 'codex-1',
    agent: 'codex',
  });
  taskId = thread.payload.task_id;
}, 60_000);

afterAll(async () => {
  await server?.close();
});

describe('arguments a tool does not declare', () => {
  it('serves task_claim_file with `agent`, naming it in ignored_arguments', async () => {
    const r = await server.call('task_claim_file', {
      task_id: taskId,
      session_id: 'codex-1',
      file_path: 'src/a.ts',
      agent: 'codex',
    });
    expect(r.isError, r.text).toBe(false);
    expect(r.payload).toMatchObject({ observation_id: expect.any(Number), ignored_arguments: ['agent'] });
  });

  it('serves hivemind_context with session_id and agent', async () => {
    const r = await server.call('hivemind_context', { repo_root: REPO, session_id: 'codex-1', agent: 'codex' });
    expect(r.isError, r.text).toBe(false);
    expect(r.payload.ignored_arguments).toEqual(['agent', 'session_id']);
  });

  it('adds no field when every argument is declared', async () => {
    const r = await server.call('task_claim_file', { task_id: taskId, session_id: 'codex-1', file_path: 'src/b.ts' });
    expect(r.isError, r.text).toBe(false);
    expect(r.payload).not.toHaveProperty('ignored_arguments');
  });

  it('still refuses wrong types and missing required fields, beside an unknown argument', async () => {
    const wrongType = await server.call('task_claim_file', {
      task_id: 'seven',
      session_id: 'codex-1',
      file_path: 'x',
      agent: 'a',
    });
    expect(wrongType.payload).toMatchObject({ code: 'INVALID_PARAMETERS', fields: ['task_id'] });
    const missing = await server.call('task_claim_file', { task_id: taskId, agent: 'codex', file_path: 'x' });
    expect(missing.payload).toMatchObject({ code: 'INVALID_PARAMETERS', fields: ['session_id'] });
  });

  it('keeps nested objects strict', async () => {
    const r = await server.call('task_plan_validate', {
      repo_root: REPO,
      subtasks: [{ title: 'A', description: 'a.', file_scope: ['a.ts'], colour: 'red' }],
    });
    expect(r.payload).toMatchObject({ code: 'INVALID_PARAMETERS' });
  });
});

/**
 * Sessions that never called task_thread, over the real wire: a colony-mcp process driven
 * by the MCP SDK client. The contract refuses to materialise a phantom session only in
 * recall_session; everywhere else a first call registers the caller's session and the
 * documented codes follow (NOT_PARTICIPANT, PLAN_SUBTASK_NOT_YOURS, ACTIVE_TASK_NOT_FOUND).
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Server, startServer, tempDir } from './_harness';

const REPO = tempDir('colony-fresh-repo-');
let server: Server;

const ok = async (tool: string, args: Record<string, unknown>) => {
  const result = await server.call(tool, args);
  expect(result.isError, `${tool}: ${result.text}`).toBe(false);
  return result.payload;
};
const refused = async (tool: string, args: Record<string, unknown>, code: string) => {
  const result = await server.call(tool, args);
  expect(result.isError, `${tool}: ${result.text}`).toBe(true);
  expect(result.payload).toMatchObject({ code, tool });
};

beforeAll(async () => {
  const dir = tempDir();
  server = await startServer({ db: join(dir, 'colony.db'), home: dir });
}, 60_000);

afterAll(async () => {
  await server?.close();
});

describe('a session that never called task_thread', () => {
  it('proposes, notes, marks read and completes, with the documented codes where it may not', async () => {
    const fresh = 'codex@fresh-1';
    const proposal = await ok('task_propose', {
      repo_root: REPO,
      branch: 'main',
      summary: 'Extract the widget helper',
      rationale: 'Two call sites copy it.',
      session_id: fresh,
    });
    expect(proposal).toMatchObject({ proposal_id: expect.any(Number) });
    await ok('task_reinforce', { proposal_id: proposal.proposal_id, session_id: 'claude@fresh-2', kind: 'explicit' });
    await refused(
      'task_note_working',
      { session_id: fresh, content: 'branch=main; next=tests' },
      'ACTIVE_TASK_NOT_FOUND',
    );

    await ok('task_plan_publish', {
      repo_root: REPO,
      slug: 'widgets',
      session_id: 'queen-1',
      agent: 'claude',
      title: 'Widgets',
      problem: 'No widgets yet.',
      acceptance_criteria: ['Widgets render'],
      subtasks: [
        { title: 'Build API', description: 'API.', file_scope: ['api/widgets.ts'] },
        { title: 'Build UI', description: 'UI.', file_scope: ['ui/widgets.tsx'] },
      ],
    });
    const other = await ok('task_plan_claim_subtask', {
      plan_slug: 'widgets',
      subtask_index: 0,
      session_id: 'claude@other-1',
      agent: 'claude',
    });
    const message = await ok('task_message', {
      task_id: other.task_id,
      session_id: 'claude@other-1',
      agent: 'claude',
      content: 'API shape is settled.',
      to_agent: 'codex',
    });
    await refused(
      'task_message_mark_read',
      { message_observation_id: message.message_observation_id, session_id: 'codex@fresh-3' },
      'NOT_PARTICIPANT',
    );
    await refused(
      'task_plan_complete_subtask',
      { plan_slug: 'widgets', subtask_index: 0, session_id: 'codex@fresh-4', summary: 'done' },
      'PLAN_SUBTASK_NOT_YOURS',
    );

    const mine = await ok('task_plan_claim_subtask', {
      plan_slug: 'widgets',
      subtask_index: 1,
      session_id: fresh,
      agent: 'codex',
    });
    const noted = await ok('task_note_working', { session_id: fresh, content: 'branch=ui; next=render' });
    expect(noted).toMatchObject({ task_id: mine.task_id });
    await ok('task_thread', {
      repo_root: REPO,
      branch: 'spec/widgets/sub-1',
      session_id: 'claude@other-1',
      agent: 'claude',
    });
    const toFresh = await ok('task_message', {
      task_id: mine.task_id,
      session_id: 'claude@other-1',
      agent: 'claude',
      content: 'Ping me when the UI renders.',
      to_session_id: fresh,
    });
    expect(
      await ok('task_message_mark_read', { message_observation_id: toFresh.message_observation_id, session_id: fresh }),
    ).toEqual({ status: 'read' });
    await ok('task_plan_complete_subtask', {
      plan_slug: 'widgets',
      subtask_index: 1,
      session_id: fresh,
      summary: 'UI renders.',
    });
  });

  it('still refuses to materialise a phantom session in recall_session', async () => {
    await refused(
      'recall_session',
      { target_session_id: 'nobody-1', current_session_id: 'nobody-2' },
      'SESSION_NOT_FOUND',
    );
  });
});

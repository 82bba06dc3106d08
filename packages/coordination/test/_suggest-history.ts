/**
 * A seeded task history for suggestion tests, written through tool calls so the unit
 * fixture and a real MCP server process can both replay it: two completed plan
 * sub-tasks about stale claims (one with a failed approach, one with an expired
 * handoff), one about dark mode, and a current task on the same topic.
 */

export type Call = (tool: string, args: Record<string, unknown>) => Promise<Record<string, unknown>>;

/** Publishes a two-step plan, works and completes its first sub-task; returns that sub-task's task id. */
async function pastTask(
  call: Call,
  advance: (ms: number) => void,
  repoRoot: string,
  slug: string,
  title: string,
  files: string[],
  notes: string[],
  extra: (taskId: number) => Promise<void> = async () => {},
): Promise<number> {
  await call('task_plan_publish', {
    repo_root: repoRoot,
    slug,
    session_id: 'queen-1',
    agent: 'claude',
    title,
    problem: `${title}.`,
    acceptance_criteria: ['done'],
    subtasks: [
      { title, description: `${title}: do it.`, file_scope: files, depends_on: [] },
      { title: 'Verify it', description: 'Run the suite.', file_scope: [`test/${slug}.test.ts`], depends_on: [0] },
    ],
  });
  const claimed = await call('task_plan_claim_subtask', {
    repo_root: repoRoot,
    plan_slug: slug,
    subtask_index: 0,
    session_id: `codex-${slug}`,
    agent: 'codex',
  });
  const taskId = claimed.task_id as number;
  for (const content of notes) {
    advance(60_000);
    await call('task_post', { task_id: taskId, session_id: `codex-${slug}`, kind: 'note', content });
  }
  await extra(taskId);
  advance(30 * 60_000);
  await call('task_plan_complete_subtask', {
    repo_root: repoRoot,
    plan_slug: slug,
    subtask_index: 0,
    session_id: `codex-${slug}`,
    summary: 'done',
  });
  return taskId;
}

/** Seeds the history; `advance` moves the clock the calls are made under. */
export async function seedHistory(call: Call, advance: (ms: number) => void, repoRoot: string) {
  const a = await pastTask(
    call,
    advance,
    repoRoot,
    'stale-claims-release',
    'Release stale claims after a quota relay',
    ['packages/storage/src/claims.ts', 'packages/coordination/src/claims/claim-service.ts'],
    ['Stale claims stay active after the quota relay expires', 'Cleanup releases stale claims of relayed sessions'],
    async (taskId) => {
      await call('task_post', {
        task_id: taskId,
        session_id: 'codex-stale-claims-release',
        kind: 'failed_approach',
        content: 'Releasing claims inside the relay accept path deadlocked the quota cleanup',
      });
    },
  );
  const b = await pastTask(
    call,
    advance,
    repoRoot,
    'quota-relay-cleanup',
    'Quota relay cleanup of stale claims',
    ['packages/storage/src/claims.ts', 'packages/coordination/src/batons/baton-service.ts'],
    ['Quota relay cleanup weakens stale claims', 'Expired relays leave stale claims until cleanup runs'],
    async (taskId) => {
      await call('task_hand_off', {
        task_id: taskId,
        session_id: 'codex-quota-relay-cleanup',
        to_agent: 'claude',
        summary: 'Take over the stale claims cleanup',
        expires_in_minutes: 1,
      });
      advance(5 * 60_000);
    },
  );
  const other = await pastTask(
    call,
    advance,
    repoRoot,
    'dark-mode',
    'Dark mode toggle for the viewer',
    ['apps/viewer/src/theme.css'],
    ['Theme colours switch with a dark mode toggle', 'CSS variables hold the palette'],
  );
  const current = (await call('task_thread', {
    repo_root: repoRoot,
    branch: 'agent/claude/stale-claims-again',
    session_id: 'claude-now',
    agent: 'claude',
  })) as { task_id: number };
  await call('task_post', {
    task_id: current.task_id,
    session_id: 'claude-now',
    kind: 'note',
    content: 'Stale claims after quota relay cleanup again',
  });
  return { a, b, other, current: current.task_id };
}

/**
 * HookService: what each IDE hook event does to the store and what it says back.
 * Real SQLite file, manual clock; the repository lookup, the attention reader and the
 * claim path are injected, so each behaviour is pinned without git or other services.
 */
import { countObservations, getSession, listTasks, taskTimeline } from '@swarm/storage';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type Attention,
  type AttentionPort,
  type AttentionQuery,
  type ClaimPort,
  type ClaimRequest,
  NO_ATTENTION,
} from '../src/hooks/attention';
import {
  DEFAULT_COORDINATION_SETTINGS,
  estimatingTokenCounter,
  formatHookOutput,
  HookService,
  type RepoLocator,
} from '../src/index';
import { createFixture, type Fixture, START } from './_fixture';

const REPO = '/abs/repo';
const OTHER_REPO = '/abs/other';
const base = (session_id: string, cwd = REPO) => ({ session_id, cwd, transcript_path: null });
const edit = (session_id: string, file_path: string, tool_name = 'Edit') => ({
  ...base(session_id),
  tool_name,
  tool_input: { file_path, old_string: 'a', new_string: 'b' },
});

let fx: Fixture;
let branches: Map<string, string | null>;
let attention: Attention;
let queries: AttentionQuery[];
let claims: ClaimRequest[];
let conflicts: ClaimPort['claim'];
let hooks: HookService;

const locate: RepoLocator = async (path) => {
  for (const [root, branch] of branches) if (path === root || path.startsWith(`${root}/`)) return { root, branch };
  return null;
};

beforeEach(() => {
  fx = createFixture();
  branches = new Map([
    [REPO, 'main'],
    [OTHER_REPO, 'dev'],
  ]);
  attention = NO_ATTENTION;
  queries = [];
  claims = [];
  conflicts = () => ({ conflicts: [] });
  const attentionPort: AttentionPort = {
    read: (query) => {
      queries.push(query);
      return attention;
    },
  };
  const claimPort: ClaimPort = {
    claim: (request) => {
      claims.push(request);
      return conflicts(request);
    },
  };
  const ctx = {
    store: fx.store,
    clock: fx.clock,
    tokens: estimatingTokenCounter(),
    settings: DEFAULT_COORDINATION_SETTINGS,
  };
  hooks = new HookService(ctx, { tasks: fx.tasks, locateRepo: locate, attention: attentionPort, claims: claimPort });
});
afterEach(() => fx.close());

const editsOf = (taskId: number) =>
  taskTimeline(fx.store, taskId, 50)
    .filter((o) => o.kind === 'edit')
    .map((o) => o.id);

describe('session-start', () => {
  it('registers the session, joins the task of the repo and branch, and prefaces with both', async () => {
    const result = await hooks.sessionStart('claude-code', { ...base('3f2a'), source: 'startup' });
    expect(result.sessionId).toBe('claude-3f2a');
    const session = getSession(fx.store, 'claude-3f2a');
    expect(session).toMatchObject({ ide: 'claude-code', agent: 'claude', cwd: REPO, lastHeartbeatAt: START });
    expect(session?.metadata).toMatchObject({ ide_session_id: '3f2a' });
    const [task] = listTasks(fx.store, { limit: 5 });
    expect(task).toMatchObject({ repoRoot: REPO, branch: 'main' });
    expect(result.context).toContain('you are session claude-3f2a (agent claude)');
    expect(result.context).toContain(`Task #${task?.id}: main in ${REPO}; no one else here.`);
  });

  it('names the other sessions on the task', async () => {
    await hooks.sessionStart('codex', base('c1'));
    fx.clock.advance(1000);
    const result = await hooks.sessionStart('claude-code', base('k1'));
    expect(result.context).toContain('also here: codex-c1 (codex)');
  });

  it('starting again only heartbeats: no second join observation', async () => {
    await hooks.sessionStart('claude-code', base('k1'));
    const before = countObservations(fx.store);
    fx.clock.advance(60_000);
    await hooks.sessionStart('claude-code', base('k1'));
    expect(countObservations(fx.store)).toBe(before);
    expect(getSession(fx.store, 'claude-k1')?.lastHeartbeatAt).toBe(START + 60_000);
  });

  it('outside a repository registers the session and says no task was joined', async () => {
    const result = await hooks.sessionStart('codex', base('c1', '/tmp/scratch'));
    expect(getSession(fx.store, 'codex-c1')).toMatchObject({ ide: 'codex', agent: 'codex' });
    expect(listTasks(fx.store, { limit: 5 })).toEqual([]);
    expect(result.context).toContain('No task joined: /tmp/scratch is not in a git repository');
  });

  it('on a detached HEAD joins nothing and says so', async () => {
    branches.set(REPO, null);
    const result = await hooks.sessionStart('claude-code', base('k1'));
    expect(listTasks(fx.store, { limit: 5 })).toEqual([]);
    expect(result.context).toContain(`No task joined: ${REPO} is on a detached HEAD`);
  });

  it('lists what needs the agent, with the calls to make', async () => {
    const accept = { tool: 'task_accept_handoff', args: { handoff_observation_id: 401, session_id: 'claude-k1' } };
    const decline = { tool: 'task_decline_handoff', args: { handoff_observation_id: 401, session_id: 'claude-k1' } };
    const reply = (id: number) => ({
      tool: 'task_message',
      args: { task_id: 1, session_id: 'claude-k1', reply_to: id },
    });
    const from = { taskId: 1, fromAgent: 'codex', fromSessionId: 'codex-c1' };
    attention = {
      handoffs: [
        { id: 401, kind: 'handoff', ...from, summary: 'Run the e2e', expiresAt: START + 3_600_000, accept, decline },
      ],
      messages: [
        {
          id: 88,
          ...from,
          urgency: 'blocking',
          preview: 'stop editing x.ts',
          createdAt: START - 120_000,
          reply: reply(88),
        },
        { id: 90, ...from, urgency: 'needs_reply', preview: 'typecheck?', createdAt: START, reply: reply(90) },
      ],
      fyiUnread: 3,
      claims: [{ taskId: 1, filePath: 'src/a.ts', sessionId: 'codex-c1', agent: 'codex', claimedAt: START - 240_000 }],
    };
    const { context = '' } = await hooks.sessionStart('claude-code', base('k1'));
    const lines = context.split('\n');
    expect(lines[2]).toBe('BLOCKING messages for you:');
    expect(lines[3]).toBe(
      '- #88 on task #1 from codex 2m ago: stop editing x.ts | reply: task_message {"task_id":1,"session_id":"claude-k1","reply_to":88}',
    );
    expect(lines[4]).toBe('Handoffs for you (accept or decline):');
    expect(lines[5]).toBe('- #401 handoff on task #1 from codex (codex-c1, expires in 60m): Run the e2e');
    expect(lines[6]).toBe('  accept: task_accept_handoff {"handoff_observation_id":401,"session_id":"claude-k1"}');
    expect(lines[7]).toBe('  decline: task_decline_handoff {"handoff_observation_id":401,"session_id":"claude-k1"}');
    expect(lines[8]).toBe('Messages needing your reply:');
    expect(lines[9]).toMatch(/^- #90 on task #1 from codex just now: typecheck\? \| reply: task_message /);
    expect(lines.slice(10)).toEqual([
      '3 unread fyi messages: task_messages',
      'Files others are editing (fresh claims):',
      '- src/a.ts claimed by codex-c1 (codex, task #1, 4m ago)',
    ]);
    expect(queries.at(-1)).toEqual({ sessionId: 'claude-k1', agent: 'claude', taskIds: [1] });
  });
});

describe('user-prompt-submit', () => {
  it('heartbeats and stays silent when nothing is new', async () => {
    await hooks.sessionStart('claude-code', base('k1'));
    fx.clock.advance(5000);
    const result = await hooks.userPromptSubmit('claude-code', { ...base('k1'), prompt: 'go on' });
    expect(result.context).toBeUndefined();
    expect(getSession(fx.store, 'claude-k1')?.lastHeartbeatAt).toBe(START + 5000);
  });

  it('asks only for what appeared since the agent last looked, and reminds in one line', async () => {
    await hooks.sessionStart('claude-code', base('k1'));
    fx.clock.advance(5000);
    const call = { tool: 't', args: {} };
    const from = { taskId: 1, fromAgent: 'codex', fromSessionId: 'codex-c1' };
    attention = {
      ...NO_ATTENTION,
      handoffs: [
        { id: 7, kind: 'handoff', ...from, summary: 's', expiresAt: START + 9e6, accept: call, decline: call },
      ],
      messages: [{ id: 8, ...from, urgency: 'blocking', preview: 'p', createdAt: START + 4000, reply: call }],
    };
    const first = await hooks.userPromptSubmit('claude-code', { ...base('k1'), prompt: 'next' });
    expect(queries.at(-1)).toMatchObject({ since: START });
    expect(first.context).toBe(
      'colony: new for you: 1 handoff, 1 blocking message. Call attention_inbox before continuing.',
    );
    fx.clock.advance(5000);
    await hooks.userPromptSubmit('claude-code', { ...base('k1'), prompt: 'again' });
    expect(queries.at(-1)).toMatchObject({ since: START + 5000 });
  });
});

describe('pre-tool-use', () => {
  it('claims each edited file, repo-relative, on the task of its repo and branch', async () => {
    await hooks.sessionStart('claude-code', base('k1'));
    const result = await hooks.preToolUse('claude-code', edit('k1', `${REPO}/src/a.ts`));
    expect(claims).toEqual([{ taskId: 1, sessionId: 'claude-k1', agent: 'claude', filePath: 'src/a.ts' }]);
    expect(result).toEqual({ sessionId: 'claude-k1' });
  });

  it('warns, never refuses, when another session holds the file', async () => {
    conflicts = (r) => ({
      conflicts: [
        { taskId: r.taskId, filePath: r.filePath, sessionId: 'codex-c1', agent: 'codex', claimedAt: START - 60_000 },
      ],
    });
    const result = await hooks.preToolUse('claude-code', edit('k1', `${REPO}/src/a.ts`));
    expect(result.context).toBe(
      'colony: overlap: src/a.ts claimed by codex-c1 (codex, task #1, 1m ago). Claims are warnings, not locks: coordinate with task_message before overwriting their work.',
    );
    expect(result.notice).toBe('colony: src/a.ts also claimed by another session (warning only)');
    const printed = JSON.parse(formatHookOutput('claude-code', 'pre-tool-use', result));
    expect(printed).toEqual({
      systemMessage: result.notice,
      hookSpecificOutput: { hookEventName: 'PreToolUse', additionalContext: result.context },
    });
  });

  it('claims every file an apply_patch names, and ignores tools that do not edit', async () => {
    const patch = [
      '*** Begin Patch',
      '*** Update File: src/a.ts',
      '@@',
      '-x',
      '+y',
      '*** Add File: docs/new.md',
      '+hello',
      '*** End Patch',
    ].join('\n');
    await hooks.preToolUse('codex', { ...base('c1'), tool_name: 'apply_patch', tool_input: { command: patch } });
    await hooks.preToolUse('codex', { ...base('c1'), tool_name: 'Bash', tool_input: { command: 'rm -rf src' } });
    expect(claims.map((c) => c.filePath)).toEqual(['src/a.ts', 'docs/new.md']);
  });
});

describe('post-tool-use', () => {
  it('records an edit observation per file, joining the task when the session had not', async () => {
    await hooks.postToolUse('claude-code', edit('k1', `${REPO}/src/./a.ts`, 'Write'));
    const [task] = listTasks(fx.store, { limit: 5 });
    const timeline = taskTimeline(fx.store, task?.id ?? 0, 10);
    expect(timeline.map((o) => [o.kind, o.sessionId])).toEqual([
      ['edit', 'claude-k1'],
      ['task-open', 'claude-k1'],
    ]);
    const editObs = await fx.ok<Array<{ content: string; metadata: unknown }>>('get_observations', {
      ids: editsOf(task?.id ?? 0),
    });
    expect(editObs[0]).toMatchObject({ content: 'Write src/a.ts', metadata: { tool: 'Write', file_path: 'src/a.ts' } });
  });

  it('files in two repositories go to the two tasks; files in none are skipped', async () => {
    const patch = `*** Begin Patch\n*** Update File: ${REPO}/a.ts\n*** Update File: ${OTHER_REPO}/b.ts\n*** Delete File: /tmp/c.ts\n*** End Patch`;
    const before = countObservations(fx.store);
    await hooks.postToolUse('codex', { ...base('c1'), tool_name: 'apply_patch', tool_input: { command: patch } });
    const tasks = listTasks(fx.store, { limit: 5 });
    expect(tasks.map((t) => [t.repoRoot, t.branch]).sort()).toEqual([
      [OTHER_REPO, 'dev'],
      [REPO, 'main'],
    ]);
    // two joins + two edits
    expect(countObservations(fx.store) - before).toBe(4);
  });

  it('a branch switched mid-session joins the new branch task', async () => {
    await hooks.sessionStart('claude-code', base('k1'));
    branches.set(REPO, 'feature/y');
    await hooks.postToolUse('claude-code', edit('k1', `${REPO}/a.ts`));
    const tasks = listTasks(fx.store, { limit: 5 });
    expect(tasks.map((t) => t.branch).sort()).toEqual(['feature/y', 'main']);
  });

  it('a non-edit tool records nothing but the heartbeat', async () => {
    await hooks.sessionStart('claude-code', base('k1'));
    const before = countObservations(fx.store);
    fx.clock.advance(700);
    await hooks.postToolUse('claude-code', {
      ...base('k1'),
      tool_name: 'Read',
      tool_input: { file_path: `${REPO}/a.ts` },
    });
    expect(countObservations(fx.store)).toBe(before);
    expect(getSession(fx.store, 'claude-k1')?.lastHeartbeatAt).toBe(START + 700);
  });
});

describe('stop', () => {
  it('heartbeats, keeps the session open, and prints nothing', async () => {
    await hooks.sessionStart('codex', base('c1'));
    fx.clock.advance(9000);
    const result = await hooks.stop('codex', base('c1'));
    expect(getSession(fx.store, 'codex-c1')).toMatchObject({ lastHeartbeatAt: START + 9000, endedAt: null });
    expect(formatHookOutput('codex', 'stop', { ...result, context: 'x', notice: 'y' })).toBe('');
  });
});

describe('formatHookOutput', () => {
  it('never carries a decision: no permissionDecision, decision or continue', () => {
    for (const event of ['session-start', 'user-prompt-submit', 'pre-tool-use', 'post-tool-use'] as const) {
      const text = formatHookOutput('codex', event, { sessionId: 's', context: 'c', notice: 'n' });
      expect(Object.keys(JSON.parse(text)).sort()).toEqual(['hookSpecificOutput', 'systemMessage']);
      expect(text).not.toMatch(/permissionDecision|"decision"|"continue"/);
    }
    expect(formatHookOutput('claude-code', 'post-tool-use', { sessionId: 's' })).toBe('');
  });
});

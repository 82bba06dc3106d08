/**
 * The built `colony` CLI for choosing work, as a real OS process on a temporary
 * database: `colony task ready` (listing, auto-claim, --no-auto-claim, --json) and
 * `colony autopilot tick`, with usage errors for bad flags.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cliStore } from './_cli';

const { dir, colony, tool } = cliStore('colony-cli-ready-');
const repo = join(dir, 'repo');

const who = (session: string) => ['--session', session, '--agent', 'codex', '--repo-root', 'repo'];

beforeAll(async () => {
  mkdirSync(repo);
  await tool('task_plan_publish', {
    repo_root: repo,
    slug: 'widgets',
    session_id: 'queen-1',
    agent: 'claude',
    title: 'Widgets',
    problem: 'p',
    acceptance_criteria: ['done'],
    subtasks: [
      { title: 'Build API', description: 'a', file_scope: ['src/api.ts'], capability_hint: 'api_work' },
      { title: 'Build UI', description: 'u', file_scope: ['src/ui.tsx'], capability_hint: 'ui_work' },
      { title: 'Verify release', description: 'v', file_scope: ['test/all.test.ts'], depends_on: [0, 1] },
    ],
  });
});

describe('colony task ready', () => {
  it('lists without claiming with --no-auto-claim, resolving --repo-root against the working directory', () => {
    const listed = colony(['task', 'ready', ...who('codex-1'), '--no-auto-claim']);
    expect(listed.code, listed.stderr).toBe(0);
    const lines = listed.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe('ready: 2 shown, 2 claimable');
    expect(lines[1]).toMatch(
      /^widgets\/sub-0\s+Build API\s+api_work, wave 1\s+priority [\d.]+\s+fit 0\.5\s+ready_high_score$/,
    );
    expect(lines[2]).toMatch(/^widgets\/sub-1\s+Build UI\s+ui_work, wave 1/);
    expect(lines.at(-1)).toBe('next: Call task_plan_claim_subtask with plan_slug="widgets", subtask_index=0.');
  });

  it('prints the raw tool value with --json', () => {
    const json = colony(['task', 'ready', ...who('codex-1'), '--no-auto-claim', '--json', '--limit', '1']).json();
    expect(json).toMatchObject({ total_available: 2, next_tool: 'task_plan_claim_subtask', plan_slug: 'widgets' });
    expect(json.ready).toHaveLength(1);
    expect(json.claim_args).toEqual({ plan_slug: 'widgets', subtask_index: 0, session_id: 'codex-1', agent: 'codex' });
  });

  it('claims the top pick by default and says so', () => {
    const claimed = colony(['task', 'ready', ...who('codex-1')]);
    expect(claimed.code, claimed.stderr).toBe(0);
    expect(claimed.stdout).toMatch(/\nauto-claimed widgets\/sub-0: task #\d+, branch spec\/widgets\/sub-0\n/);
    expect(claimed.stdout.trimEnd().split('\n').at(-1)).toBe(
      'next: Auto-claimed widgets/sub-0: claim files before edits with task_claim_file, then post task_note_working.',
    );
  });

  it('prints the empty state when nothing is claimable', () => {
    const empty = colony(['task', 'ready', '--session', 's', '--agent', 'codex', '--repo-root', 'elsewhere']);
    expect(empty.stdout).toBe(
      'No claimable plan subtasks. Publish a Queen/task plan for multi-agent work, reinforce a proposal with task_propose/task_reinforce, or use task_list only for browsing.\nnext: Publish a Queen/task plan or promote a proposal into claimable work.\n',
    );
  });

  it('refuses a missing --agent, a bad --limit and unknown flags as usage errors', () => {
    expect(colony(['task', 'ready', '--session', 's']).code).toBe(2);
    expect(colony(['task', 'ready', ...who('s'), '--limit', 'many']).code).toBe(2);
    const typo = colony(['task', 'ready', ...who('s'), '--auto-clam']);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toMatch(/unknown option --auto-clam/);
    const refused = colony(['task', 'ready', ...who('s'), '--limit', '50']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^colony: INVALID_PARAMETERS: /);
  });
});

describe('colony autopilot tick', () => {
  it('prints the decision, the next call and the sleep hint; --json gives the tool value', () => {
    const tick = colony(['autopilot', 'tick', ...who('codex-2')]);
    expect(tick.code, tick.stderr).toBe(0);
    const lines = tick.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe('decision: claim_ready');
    expect(lines[2]).toMatch(/^next: task_plan_claim_subtask \{"plan_slug":"widgets","subtask_index":1,/);
    expect(lines[4]).toBe('wake in: 60s');
    expect(lines[5]).toMatch(/^signals: 0 handoff\(s\), 0 relay\(s\), 0 unread \(0 blocking\), 1 ready, /);

    const json = colony(['autopilot', 'tick', ...who('codex-1'), '--json']).json();
    expect(json).toMatchObject({ decision: 'continue_current', next_tool: 'task_plan_complete_subtask' });
  });

  it('shows its sub-command in help and refuses a bare group', () => {
    expect(colony(['autopilot', '--help']).stdout).toContain('tick');
    expect(colony(['autopilot']).code).toBe(2);
  });
});

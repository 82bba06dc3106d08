/**
 * The built `colony inbox` CLI as a real OS process on a temporary database: the
 * attention_inbox summary and one line per listed entry, `--json`, and usage errors.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cliStore } from './_cli';

const { dir, colony, tool } = cliStore('colony-cli-inbox-');
const repo = join(dir, 'repo');
let task: number;
let handoff: number;
let blocking: number;

beforeAll(async () => {
  mkdirSync(repo);
  const thread = (session_id: string, agent: string) =>
    tool('task_thread', { repo_root: repo, branch: 'main', session_id, agent });
  task = (await thread('claude-1', 'claude')).task_id as number;
  await thread('codex-1', 'codex');
  blocking = (
    await tool('task_message', {
      task_id: task,
      session_id: 'claude-1',
      agent: 'claude',
      to_agent: 'codex',
      to_session_id: 'codex-1',
      urgency: 'blocking',
      content: 'Need PR merge evidence before cleanup.',
    })
  ).message_observation_id as number;
  await tool('task_claim_file', { task_id: task, session_id: 'claude-1', file_path: 'src/a.ts' });
});

describe('colony inbox', () => {
  it('prints the counts, the next action and one line per entry, resolving --repo-root', () => {
    const run = colony(['inbox', '--session', 'codex-1', '--agent', 'codex', '--repo-root', 'repo']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout.trimEnd().split('\n')).toEqual([
      'inbox: 1 unread (1 blocking, 0 needs_reply), 0 handoff(s), 0 wake(s), 0 blocker(s), 0 stalled lane(s), 1 fresh claim(s) of others, 0 stale claim(s), 1 hot file(s)',
      'next: Reply to blocking messages before choosing work.',
      `message #${blocking} task #${task} blocking from claude: Need PR merge evidence before cleanup.`,
      `claim src/a.ts task #${task} by claude-1 (claude)`,
      `hot src/a.ts task #${task} heat 1`,
    ]);
  });

  it('lists a handoff right after blocking messages, and says when entries were left out', async () => {
    handoff = (
      await tool('task_hand_off', {
        task_id: task,
        session_id: 'claude-1',
        to_agent: 'codex',
        summary: 'Parser landed; wire the CLI.',
      })
    ).handoff_observation_id as number;
    await tool('task_message', {
      task_id: task,
      session_id: 'claude-1',
      agent: 'claude',
      to_agent: 'codex',
      urgency: 'needs_reply',
      content: 'Can you re-run the typecheck?',
    });
    const lines = colony(['inbox', '--session', 'codex-1', '--agent', 'codex']).stdout.trimEnd().split('\n');
    expect(lines.slice(1, 3)).toEqual([
      'next: Reply to blocking messages before choosing work.',
      `message #${blocking} task #${task} blocking from claude: Need PR merge evidence before cleanup.`,
    ]);
    // The blocking message (about 300 tokens with its hints) fills most of the answer's budget: the
    // handoff and the needs_reply message are counted, not listed, until it is read.
    expect(lines.join('\n')).not.toContain(`handoff #${handoff}`);
    expect(lines.at(-1)).toMatch(/^not listed: \d+ more entr(y|ies) \(counted above\)$/);
  });

  it('prints the raw tool value with --json, and nothing of another repository', () => {
    const json = colony(['inbox', '--session', 'codex-1', '--agent', 'codex', '--json']).json();
    expect(json.summary).toMatchObject({ unread_message_count: 2, pending_handoff_count: 1, blocked: true });
    expect(json.unread_messages[0]).toMatchObject({ id: blocking, mark_read_tool: 'task_message_mark_read' });
    expect(json.budget).toMatchObject({ hydrate_with: 'get_observations' });
    mkdirSync(join(dir, 'elsewhere'), { recursive: true });
    const elsewhere = colony([
      'inbox',
      '--session',
      'codex-1',
      '--agent',
      'codex',
      '--repo-root',
      'elsewhere',
      '--json',
    ]);
    // The raw answer leaves counts of 0 out.
    expect(elsewhere.json().summary).toEqual({ blocked: false, next_action: expect.any(String) });
  });

  it('refuses a missing --agent and unknown flags as usage errors', () => {
    expect(colony(['inbox', '--session', 'codex-1']).code).toBe(2);
    const typo = colony(['inbox', '--session', 'codex-1', '--agent', 'codex', '--limt', '3']);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toMatch(/unknown option --limt/);
  });
});

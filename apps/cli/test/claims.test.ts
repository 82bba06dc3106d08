/**
 * The built `colony` CLI for file claims, drift, handoffs and relays, as a real OS
 * process on a temporary database: what each command prints, that --json prints the
 * tool's value, repeatable flags, and one-line failures.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { cliStore } from './_cli';

const REPO = '/abs/cli-claims-repo';
const { colony, tool } = cliStore('colony-cli-claims-');

let taskId: string;

beforeAll(async () => {
  for (const [session_id, agent] of [
    ['claude-1', 'claude'],
    ['codex-1', 'codex'],
    ['codex-2', 'codex'],
  ]) {
    taskId = String((await tool('task_thread', { repo_root: REPO, branch: 'main', session_id, agent })).task_id);
  }
});

describe('colony task claim', () => {
  it('claims a file and prints the observation id; another session sees the overlap warning', () => {
    const first = colony(['task', 'claim', taskId, 'src/lexer.ts', '--session', 'claude-1', '--note', 'lexer']);
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(new RegExp(`^claimed src/lexer.ts on task #${taskId} \\(#\\d+\\)\\n$`));
    const second = colony(['task', 'claim', taskId, `${REPO}/src/lexer.ts`, '--session', 'codex-1', '--json']);
    expect(second.json()).toMatchObject({
      observation_id: expect.any(Number),
      warning: expect.stringContaining('claude-1'),
      overlaps: [expect.objectContaining({ session_id: 'claude-1', age_class: 'fresh' })],
    });
  });

  it('fails with one line for a path outside the repository', () => {
    const run = colony(['task', 'claim', taskId, '../../etc/passwd', '--session', 'claude-1']);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^colony: PATH_OUTSIDE_REPO: .+\n$/);
  });

  it('refuses a missing --session as a usage error', () => {
    const run = colony(['task', 'claim', taskId, 'src/a.ts']);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe('colony: Missing required argument: --session\n');
  });
});

describe('colony task drift', () => {
  it('prints the drift summary, and the task_drift_check value with --json', () => {
    const run = colony(['task', 'drift', taskId, '--session', 'claude-1']);
    expect(run.code).toBe(0);
    expect(run.stdout.split('\n').slice(0, 2)).toEqual([
      `drift 0.00 on task #${taskId} (edits of the last 60 min)`,
      'claimed: src/lexer.ts',
    ]);
    const json = colony(['task', 'drift', taskId, '--session', 'claude-1', '--window-minutes', '30', '--json']).json();
    expect(json).toMatchObject({ window_minutes: 30, claimed_files: ['src/lexer.ts'], next_tool: null });
  });
});

describe('colony task handoff / accept / decline', () => {
  it('hands off with repeatable flags, and accepts', async () => {
    const run = colony([
      'task',
      'handoff',
      taskId,
      '--session',
      'claude-1',
      '--to-agent',
      'codex',
      '--summary',
      'Lexer done; wire the parser.',
      '--next-steps',
      'wire the parser',
      '--next-steps=run the tests',
      '--blockers',
      'none yet',
      '--transferred-files',
      'src/lexer.ts',
      '--transferred-files',
      'src/tokens.ts',
      '--json',
    ]);
    expect(run.code).toBe(0);
    const { handoff_observation_id: id, status } = run.json();
    expect(status).toBe('pending');
    const [body] = (await tool('get_observations', { ids: [id] })) as unknown as Array<{
      metadata: Record<string, unknown>;
    }>;
    expect(body?.metadata).toMatchObject({
      next_steps: ['wire the parser', 'run the tests'],
      blockers: ['none yet'],
      transferred_files: ['src/lexer.ts', 'src/tokens.ts'],
    });

    const accepted = colony(['task', 'accept', String(id), '--session', 'codex-1']);
    expect(accepted.code).toBe(0);
    // The tool answers the status alone (issue 17); the claims move as the coordination tests pin.
    expect(accepted.stdout).toBe(`accepted handoff #${id}\n`);
    const again = colony(['task', 'accept', `#${id}`, '--session', 'codex-2']);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/^colony: ALREADY_ACCEPTED: .+\n$/);
  });

  it('declines with a reason, printing the status', () => {
    const sent = colony(['task', 'handoff', taskId, '--session', 'claude-1', '--to-agent', 'any', '--summary', 'x']);
    expect(sent.stdout).toMatch(/^handoff #(\d+) pending for any on task #\d+\naccept with: colony task accept \d+/);
    const id = /#(\d+)/.exec(sent.stdout)![1]!;
    const run = colony(['task', 'decline', id, '--session', 'codex-2', '--reason', 'busy', '--json']);
    expect(run.json()).toEqual({ status: 'cancelled' });
  });
});

describe('colony task relay', () => {
  it('relays with a warning when --fetch-files-at is omitted; accept and decline take relay ids too', () => {
    const relay = (extra: string[] = []) =>
      colony([
        'task',
        'relay',
        taskId,
        '--session',
        'claude-1',
        '--reason',
        'quota',
        '--one-line',
        'half-way through the parser',
        '--base-branch',
        'main',
        ...extra,
      ]);
    const run = relay();
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^relay #\d+ pending for any on task #\d+\nwarning: fetch_files_at omitted/);
    const id = /#(\d+)/.exec(run.stdout)![1]!;
    expect(colony(['task', 'accept', id, '--session', 'codex-2']).stdout).toMatch(
      new RegExp(`^accepted relay #${id}\\n`),
    );
    const other = relay(['--fetch-files-at', 'abc1234', '--json']).json();
    expect(other).toEqual({ relay_observation_id: expect.any(Number), status: 'pending' });
    expect(colony(['task', 'decline', String(other.relay_observation_id), '--session', 'codex-1']).stdout).toBe(
      `declined relay #${other.relay_observation_id} (cancelled)\n`,
    );
  });

  it('passes an unknown reason to the tool, which answers INVALID_PARAMETERS', () => {
    const run = colony([
      'task',
      'relay',
      taskId,
      '--session',
      'claude-1',
      '--reason',
      'tired',
      '--one-line',
      'x',
      '--base-branch',
      'main',
    ]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^colony: INVALID_PARAMETERS: .*reason.*\n$/);
  });
});

describe('--help', () => {
  it('documents the handoff flags named after the tool arguments', () => {
    const run = colony(['task', 'handoff', '--help']);
    expect(run.code).toBe(0);
    for (const flag of [
      '--to-agent',
      '--to-session',
      '--summary',
      '--next-steps',
      '--blockers',
      '--transferred-files',
    ]) {
      expect(run.stdout).toContain(flag);
    }
  });
});

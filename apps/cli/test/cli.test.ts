/**
 * The built `colony` CLI as a real OS process against a temporary database file:
 * what each command prints, that --json prints exactly the tool's value, and how bad
 * input fails (one stderr line, a non-zero exit code).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openColony } from '@swarm/core';
import { beforeAll, describe, expect, it } from 'vitest';

const REPO_ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const CLI = join(REPO_ROOT, 'apps/cli/dist/cli.js');
const REPO = '/abs/cli-repo';

interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  // biome-ignore lint/suspicious/noExplicitAny: JSON payloads are asserted field by field
  json(): any;
}

const dir = mkdtempSync(join(tmpdir(), 'colony-cli-'));
const db = join(dir, 'colony.db');
const home = join(dir, 'home');

/** Runs `colony <args>`; store flags are added unless the command takes none. */
function colony(args: string[], { store = true } = {}): Run {
  const result = spawnSync(process.execPath, [CLI, ...args, ...(store ? ['--db', db, '--home', home] : [])], {
    cwd: dir,
    encoding: 'utf8',
    env: { ...process.env, COLONY_HOME: home, NO_COLOR: '1' },
  });
  return {
    code: result.status,
    stdout: result.stdout,
    stderr: result.stderr,
    json: () => JSON.parse(result.stdout),
  };
}

/** The same tool call in-process, on the same database: what the CLI must print. */
async function toolValue(name: string, args: Record<string, unknown>): Promise<unknown> {
  const lib = openColony({ home, dbPath: db, receipts: false });
  try {
    const outcome = await lib.handleToolCall(name, args);
    if (!outcome.ok) throw new Error(outcome.text);
    return outcome.value;
  } finally {
    await lib.close();
  }
}

let taskId: number;
let decisionId: number;
let noteId: number;

beforeAll(() => {
  if (!existsSync(CLI)) throw new Error(`build the CLI first: ${CLI} is missing`);
  const thread = colony([
    'task',
    'thread',
    '--repo-root',
    REPO,
    '--branch',
    'feature/lexer',
    '--session',
    'claude-1',
    '--agent',
    'claude',
    '--json',
  ]);
  taskId = thread.json().task_id;
  const post = (kind: string, content: string) =>
    colony(['task', 'post', String(taskId), content, '--session', 'claude-1', '--kind', kind, '--json']).json().id;
  decisionId = post('decision', 'Use a hand-written lexer; the generated lexer is three times slower.');
  noteId = post('note', 'Lexer benchmarks live in bench/lexer.bench.ts');
});

describe('colony task thread', () => {
  it('opens the thread for a repository and branch and prints its task id', () => {
    const run = colony([
      'task',
      'thread',
      '--repo-root',
      REPO,
      '--branch',
      'feature/new',
      '--session',
      's-1',
      '--agent',
      'codex',
    ]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^task #\d+ opened: feature\/new in \/abs\/cli-repo\nparticipants: codex:s-1\n$/);
  });

  it('joins the existing thread from another session and prints the tool value with --json', () => {
    const run = colony([
      'task',
      'thread',
      '--repo-root',
      REPO,
      '--branch',
      'feature/lexer',
      '--session',
      'codex-2',
      '--agent',
      'codex',
      '--json',
    ]);
    expect(run.code).toBe(0);
    const value = run.json();
    expect(value).toMatchObject({ task_id: taskId, repo_root: REPO, branch: 'feature/lexer', created: false });
    expect(value.participants).toEqual(
      expect.arrayContaining([
        { session_id: 'claude-1', agent: 'claude' },
        { session_id: 'codex-2', agent: 'codex' },
      ]),
    );
  });
});

describe('colony task post', () => {
  it('posts to the thread with kind note by default and prints the new observation id', () => {
    const run = colony(['task', 'post', `#${taskId}`, 'parser', 'tests', 'pass', '--session', 'claude-1']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(new RegExp(`^posted #\\d+ \\(note\\) to task #${taskId}\\nhint: `));
  });

  it('returns the first result again for a repeated idempotency key', () => {
    const args = ['task', 'post', String(taskId), 'retry me', '--session', 'claude-1', '--idempotency-key', 'k-1'];
    const first = colony([...args, '--json']).json();
    expect(colony([...args, '--json']).json()).toEqual(first);
  });

  it('fails with the tool error code when the session has not joined the thread', () => {
    const run = colony(['task', 'post', String(taskId), 'hello', '--session', 'stranger']);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^colony: (SESSION_NOT_FOUND|NOT_PARTICIPANT): .+\n$/);
  });
});

describe('colony task send, messages and read', () => {
  let questionId: number;
  beforeAll(() => {
    const thread = ['task', 'thread', '--repo-root', REPO, '--branch', 'feature/lexer'];
    colony([...thread, '--session', 'codex-3', '--agent', 'codex']);
  });

  it('sends a message and prints its id, recipient, urgency and task', () => {
    const run = colony([
      'task',
      'send',
      String(taskId),
      'can you review the lexer benchmarks?',
      '--session',
      'claude-1',
      '--agent',
      'claude',
      '--to',
      'codex',
      '--urgency',
      'needs_reply',
    ]);
    expect(run.code).toBe(0);
    const match = new RegExp(`^sent #(\\d+) to codex \\(needs_reply\\) on task #${taskId}\\n$`).exec(run.stdout);
    expect(match).not.toBeNull();
    questionId = Number(match![1]);
  });

  it('lists unread messages one line each, and prints the task_messages value with --json', async () => {
    const run = colony(['task', 'messages', '--session', 'codex-3', '--agent', 'codex']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(
      new RegExp(
        `^#${questionId} +task #${taskId} +needs_reply +unread +from claude:claude-1 +\\S+Z +can you review the lexer benchmarks\\?\\n$`,
      ),
    );
    const json = colony(['task', 'messages', '--session', 'codex-3', '--agent', 'codex', '--json']);
    expect(json.json()).toEqual(
      await toolValue('task_messages', { session_id: 'codex-3', agent: 'codex', unread_only: true }),
    );
  });

  it('marks a message read, idempotently, and then lists it only with --all', () => {
    const read = ['task', 'read', `#${questionId}`, '--session', 'codex-3'];
    expect(colony(read).stdout).toBe(`message #${questionId}: read\n`);
    expect(colony([...read, '--json']).json()).toEqual({ status: 'read' });
    expect(colony(['task', 'messages', '--session', 'codex-3', '--agent', 'codex']).stdout).toBe(
      'no unread messages\n',
    );
    const all = colony(['task', 'messages', '--session', 'codex-3', '--agent', 'codex', '--all', '--json']).json();
    expect(all.map((m: { id: number; status: string }) => [m.id, m.status])).toEqual([[questionId, 'read']]);
  });

  it('replies with --reply-to and prints the task_message value with --json', () => {
    const run = colony([
      'task',
      'send',
      String(taskId),
      'looks',
      'good',
      '--session',
      'codex-3',
      '--agent',
      'codex',
      '--to-session',
      'claude-1',
      '--reply-to',
      String(questionId),
      '--expires-in',
      '60',
      '--json',
    ]);
    expect(run.code).toBe(0);
    expect(run.json()).toEqual({ message_observation_id: expect.any(Number), status: 'unread' });
    expect(colony(['task', 'read', String(questionId), '--session', 'codex-3', '--json']).json()).toEqual({
      status: 'replied',
    });
  });

  it('fails with one line: tool codes exit 1, malformed flags exit 2', () => {
    const unknown = colony(['task', 'read', '99999', '--session', 'codex-3']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/^colony: NOT_MESSAGE: .+\n$/);
    const send = ['task', 'send', String(taskId), 'hi', '--session', 'claude-1', '--agent', 'claude'];
    const badTarget = colony([...send, '--to', 'cursor']);
    expect(badTarget.code).toBe(1);
    expect(badTarget.stderr).toMatch(/^colony: INVALID_PARAMETERS: .*to_agent.*\n$/);
    const badTtl = colony([...send, '--expires-in', 'soon']);
    expect(badTtl.code).toBe(2);
    expect(badTtl.stderr).toBe('colony: --expires-in must be a whole number, got "soon"\n');
    const stranger = colony(['task', 'messages', '--session', 'nobody', '--agent', 'codex', '--json']);
    expect(stranger.code).toBe(0);
  });
});

describe('colony search', () => {
  it('prints one line per hit with id, kind, snippet, score and task', () => {
    const run = colony(['search', 'lexer']);
    expect(run.code).toBe(0);
    const lines = run.stdout.trimEnd().split('\n');
    for (const line of lines) expect(line).toMatch(/^#\d+ \[[\w-]+\] .*lexer.* {2}\(score [-\d.e]+, task (\d+|-)\)$/i);
    expect(lines).toEqual(
      expect.arrayContaining([
        expect.stringMatching(
          new RegExp(`^#${decisionId} \\[decision\\] Use a hand-written lexer.* task ${taskId}\\)$`),
        ),
        expect.stringMatching(new RegExp(`^#${noteId} \\[note\\] Lexer benchmarks .* task ${taskId}\\)$`)),
      ]),
    );
  });

  it('prints exactly the search tool value with --json, joining the words into one query', async () => {
    const run = colony(['search', 'hand-written', 'lexer', '--limit', '5', '--kind', 'decision', '--json']);
    expect(run.code).toBe(0);
    expect(run.stdout.trimEnd().split('\n')).toHaveLength(1);
    const value = run.json();
    expect(value).toEqual(await toolValue('search', { query: 'hand-written lexer', limit: 5, kind: 'decision' }));
    expect(value.map((h: { id: number }) => h.id)).toEqual([decisionId]);
  });

  it('says so when nothing matches', () => {
    const run = colony(['search', 'zebra']);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('no hits for "zebra"\n');
  });
});

describe('colony show', () => {
  it('prints a header line per observation and then its content, in the order given', () => {
    const run = colony(['show', String(noteId), `#${decisionId}`]);
    expect(run.code).toBe(0);
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(new RegExp(`^#${noteId} note claude-1 \\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z task ${taskId}$`));
    expect(lines[1]).toBe('Lexer benchmarks live in bench/lexer.bench.ts');
    expect(lines[3]).toMatch(new RegExp(`^#${decisionId} decision claude-1 `));
    expect(lines[4]).toBe('Use a hand-written lexer; the generated lexer is three times slower.');
  });

  it('asks for the compressed form with --compressed', async () => {
    const run = colony(['show', String(decisionId), '--compressed', '--json']);
    expect(run.code).toBe(0);
    expect(run.json()).toEqual(await toolValue('get_observations', { ids: [decisionId], expand: false }));
  });

  it('fails with one stderr line naming OBSERVATION_NOT_FOUND for an unknown id', () => {
    const run = colony(['show', '99999']);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/^colony: OBSERVATION_NOT_FOUND: .*99999.*\n$/);
  });
});

describe('colony sessions', () => {
  it('lists the sessions that joined threads, and prints the list_sessions value with --json', async () => {
    const human = colony(['sessions']);
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(/^claude-1 +\S+ +\d{4}-.+Z +active/m);
    expect(colony(['sessions', '--limit', '50', '--json']).json()).toEqual(
      await toolValue('list_sessions', { limit: 50 }),
    );
  });
});

describe('colony task list', () => {
  it('lists threads and passes the coordination warning through --json', () => {
    const value = colony(['task', 'list', '--repo-root', REPO, '--json']).json();
    expect(value.tasks.map((t: { branch: string }) => t.branch)).toEqual(
      expect.arrayContaining(['feature/lexer', 'feature/new']),
    );
    expect(value.coordination_warning).toBe('task_list is inventory; use task_ready_for_agent to choose work.');
    expect(value.next_tool).toBe('task_ready_for_agent');
  });

  it('hardens the warning when the same session browses again', () => {
    const args = ['task', 'list', '--session', 'browser-1', '--json'];
    colony(args);
    expect(colony(args).json().coordination_warning).toBe(
      'Stop browsing. Call task_ready_for_agent before selecting work.',
    );
  });

  it('prints one line per task and the warning last', () => {
    const run = colony(['task', 'list', '--branch', 'feature/lexer']);
    expect(run.code).toBe(0);
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(new RegExp(`^#${taskId} +active +feature/lexer +/abs/cli-repo `));
    expect(lines[1]).toMatch(/^warning: /);
  });
});

describe('colony task timeline', () => {
  it("lists the thread's observations newest first without bodies", async () => {
    const run = colony(['task', 'timeline', String(taskId)]);
    expect(run.code).toBe(0);
    const ids = run.stdout
      .trimEnd()
      .split('\n')
      .map((line) => Number(/^#(\d+) /.exec(line)?.[1]));
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    expect(ids).toEqual(expect.arrayContaining([decisionId, noteId]));
    expect(run.stdout).not.toContain('three times slower');
    expect(colony(['task', 'timeline', String(taskId), '--limit', '2', '--json']).json()).toEqual(
      await toolValue('task_timeline', { task_id: taskId, limit: 2 }),
    );
  });

  it('fails with TASK_NOT_FOUND for an unknown task', () => {
    const run = colony(['task', 'timeline', '4242']);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^colony: TASK_NOT_FOUND: .+\n$/);
  });
});

describe('colony status', () => {
  it('prints aligned lines for home, db, counts, tools and warnings', () => {
    const run = colony(['status']);
    expect(run.code).toBe(0);
    const labels = run.stdout
      .trimEnd()
      .split('\n')
      .map((line) => line.split(/\s+/)[0]);
    expect(labels).toEqual(['home', 'db', 'sessions', 'observations', 'tasks', 'tools', 'warnings']);
    expect(run.stdout).toContain(`db            ${db}\n`);
  });

  it('prints the status object plus tools per toolset with --json', () => {
    const value = colony(['status', '--json']).json();
    expect(value).toMatchObject({ home, db_path: db, tasks: 2, warnings: [] });
    expect(value.sessions).toBeGreaterThanOrEqual(3);
    expect(value.observations).toBeGreaterThanOrEqual(4);
    expect(value.toolsets.all + value.toolsets.framework + value.toolsets.runtime).toBe(value.tools);
    expect(value.toolsets.runtime).toBe(9);
    expect(value.toolsets.core).toBeGreaterThan(0);
    expect(value.toolsets.core).toBeLessThan(value.toolsets.all);
  });
});

describe('colony docs mcp', () => {
  it('renders the tool reference without touching any database', () => {
    const run = colony(['docs', 'mcp'], { store: false });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('# colony MCP tools');
    expect(run.stdout).toContain('claude mcp add colony -- node /path/to/colony/apps/mcp-server/dist/main.js');
    expect(run.stdout).toContain('## get_observations');
  });

  it('writes the reference to a file with --write', () => {
    const path = join(dir, 'out', 'mcp.md');
    const run = colony(['docs', 'mcp', '--write', path], { store: false });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^wrote .*mcp\.md \(\d+ tools\)\n$/);
    expect(readFileSync(path, 'utf8')).toBe(colony(['docs', 'mcp'], { store: false }).stdout);
  });
});

describe('bad input', () => {
  it('rejects a malformed number flag with one line and usage exit code 2', () => {
    const run = colony(['search', 'lexer', '--limit', '12abc']);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe('colony: --limit must be a whole number, got "12abc"\n');
  });

  it('rejects a malformed id', () => {
    const run = colony(['show', '12x']);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe('colony: observation id must be a whole number, got "12x"\n');
  });

  it('passes out-of-range numbers to the tool, which answers INVALID_PARAMETERS', () => {
    const run = colony(['search', 'lexer', '--limit', '500']);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^colony: INVALID_PARAMETERS: .*limit.*\n$/);
  });

  it('rejects an option the command does not define', () => {
    const run = colony(['search', 'lexer', '--limt', '3']);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      'colony: unknown option --limt for colony search; did you mean --limit? (see colony search --help)\n',
    );
  });

  it('rejects an unknown command', () => {
    const run = colony(['frobnicate'], { store: false });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^colony: unknown command "frobnicate" for colony; commands: search, .+\n$/);
  });

  it('rejects a missing positional argument', () => {
    const run = colony(['task', 'timeline']);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe('colony: Missing required positional argument: TASK-ID\n');
  });

  it('names the sub-commands when a group is run without one', () => {
    const run = colony(['task'], { store: false });
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      'colony: missing command for colony task: list, thread, post, timeline, messages, send, read, claim, drift, handoff, accept, decline, relay, ready (see colony task --help)\n',
    );
  });
});

describe('--help', () => {
  it('lists every command for the root and exits 0', () => {
    const run = colony(['--help'], { store: false });
    expect(run.code).toBe(0);
    for (const name of ['search', 'show', 'sessions', 'task', 'autopilot', 'status', 'docs', 'mcp']) {
      expect(run.stdout).toMatch(new RegExp(`^ +${name} +\\S`, 'm'));
    }
  });

  it("lists a group's sub-commands and exits 0", () => {
    const run = colony(['task', '--help'], { store: false });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(
      'USAGE colony task list|thread|post|timeline|messages|send|read|claim|drift|handoff|accept|decline|relay',
    );
  });

  it("describes a command's arguments and options under its full name", () => {
    const run = colony(['search', '--help'], { store: false });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('USAGE colony search [OPTIONS] <QUERY>');
    for (const flag of ['--limit', '--kind', '--task-id', '--json', '--db']) expect(run.stdout).toContain(flag);
  });
});

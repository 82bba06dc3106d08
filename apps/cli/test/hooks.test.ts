/**
 * `colony hook run` as the IDEs run it: a separate OS process per event, the IDE's
 * hook JSON on stdin, against a real git repository (and a git worktree) and a
 * temporary database. What it prints is checked in the IDE's format, what it writes
 * is read back from the store, and every failure exits 1, never 2 (which both IDEs
 * read as "block this tool call").
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  countObservations,
  getObservations,
  getSession,
  listTasks,
  type openStore,
  taskTimeline,
} from '@swarm/storage';
import { beforeAll, describe, expect, it } from 'vitest';
import { claude, codex } from './_hook-payloads';
import { git, readDb } from './_repo';

const REPO_ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const CLI = join(REPO_ROOT, 'apps/cli/dist/cli.js');

const dir = realpathSync(mkdtempSync(join(tmpdir(), 'colony-hooks-')));
const db = join(dir, 'colony.db');
const home = join(dir, 'home');
const clockFile = join(dir, 'clock');
const repo = join(dir, 'repo');
const worktree = join(dir, 'repo-wt');
const T0 = Date.UTC(2026, 2, 1, 9, 0);

interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `colony hook run <event> --ide <ide>` with `input` on stdin, as an IDE does. */
function hook(event: string, ide: string, input: unknown, extra: string[] = []): Run {
  const result = spawnSync(
    process.execPath,
    [CLI, 'hook', 'run', event, '--ide', ide, '--db', db, '--home', home, ...extra],
    {
      cwd: dir,
      input: typeof input === 'string' ? input : JSON.stringify(input),
      encoding: 'utf8',
      env: { ...process.env, COLONY_CLOCK_FILE: clockFile, NO_COLOR: '1' },
    },
  );
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

function setClock(ms: number): void {
  writeFileSync(clockFile, String(ms));
}

/** The edit observations of the task on `branch`, oldest first, with bodies. */
function editsOn(store: ReturnType<typeof openStore>, branch: string) {
  const task = listTasks(store, { branch, limit: 1 })[0];
  const ids = taskTimeline(store, task?.id ?? 0, 50)
    .filter((o) => o.kind === 'edit')
    .map((o) => o.id);
  return getObservations(store, ids).sort((a, b) => a.id - b.id);
}

/** Reads the store the hooks wrote, through @swarm/storage. */
function withStore<T>(fn: (store: ReturnType<typeof openStore>) => T): T {
  return readDb(db, fn);
}

beforeAll(() => {
  if (!existsSync(CLI)) throw new Error(`build the CLI first: ${CLI} is missing`);
  mkdirSync(join(repo, 'src'), { recursive: true });
  git(repo, 'init', '-q', '-b', 'feature/lexer');
  writeFileSync(join(repo, 'src/a.ts'), 'const a = 1;\n');
  git(repo, 'add', '.');
  git(repo, 'commit', '-q', '-m', 'init');
  git(repo, 'worktree', 'add', '-q', '-b', 'agent/codex/parser', worktree);
  setClock(T0);
});

describe('Claude Code hooks', () => {
  const session = '9c2d6f0e-6a3b-4f7e-9f53-2b7c1b8e4a10';
  const colonySession = `claude-${session}`;

  it('session-start registers the session, joins the repo branch task, and prints the preface as additionalContext', () => {
    const run = hook('session-start', 'claude-code', claude.sessionStart(session, join(repo, 'src')));
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
    const out = JSON.parse(run.stdout);
    expect(Object.keys(out)).toEqual(['hookSpecificOutput']);
    expect(out.hookSpecificOutput.hookEventName).toBe('SessionStart');
    const context: string = out.hookSpecificOutput.additionalContext;
    expect(context).toContain(`you are session ${colonySession} (agent claude)`);
    expect(context).toMatch(new RegExp(`Task #\\d+: feature/lexer in ${repo};`));
    withStore((store) => {
      expect(getSession(store, colonySession)).toMatchObject({
        ide: 'claude-code',
        agent: 'claude',
        cwd: join(repo, 'src'),
        lastHeartbeatAt: T0,
      });
      expect(listTasks(store, { limit: 10 }).map((t) => [t.repoRoot, t.branch])).toEqual([[repo, 'feature/lexer']]);
    });
  });

  it('pre-tool-use on Edit prints nothing when no one else holds the file, and never blocks', () => {
    const run = hook('pre-tool-use', 'claude-code', claude.preEdit(session, repo, join(repo, 'src/a.ts')));
    expect(run).toEqual({ code: 0, stdout: '', stderr: '' });
  });

  it('post-tool-use on Write records the edit, repo-relative', () => {
    setClock(T0 + 60_000);
    const run = hook('post-tool-use', 'claude-code', claude.postWrite(session, repo, join(repo, 'src/b.ts')));
    expect(run).toEqual({ code: 0, stdout: '', stderr: '' });
    withStore((store) => {
      const edits = editsOn(store, 'feature/lexer');
      expect(edits.map((e) => [e.sessionId, e.ts])).toEqual([[colonySession, T0 + 60_000]]);
      expect(edits[0]?.content).toBe('Write src/b.ts');
      expect(edits[0]?.metadata).toEqual({ tool: 'Write', file_path: 'src/b.ts' });
    });
  });

  it('user-prompt-submit and stop heartbeat and print nothing', () => {
    setClock(T0 + 120_000);
    expect(hook('user-prompt-submit', 'claude-code', claude.userPromptSubmit(session, repo, 'now the parser'))).toEqual(
      {
        code: 0,
        stdout: '',
        stderr: '',
      },
    );
    setClock(T0 + 180_000);
    expect(hook('stop', 'claude-code', claude.stop(session, repo))).toEqual({ code: 0, stdout: '', stderr: '' });
    withStore((store) =>
      expect(getSession(store, colonySession)).toMatchObject({ lastHeartbeatAt: T0 + 180_000, endedAt: null }),
    );
  });
});

describe('what needs the agent, across processes', () => {
  const claudeSession = '9c2d6f0e-6a3b-4f7e-9f53-2b7c1b8e4a10';
  const codexSession = '019a4c1e-0000-7c30-a1b5-5c1f2e9d8a77';

  /** `colony task send` from the Codex session, as its agent would through the tools. */
  function send(content: string, urgency: string): number {
    const taskId = withStore((store) => listTasks(store, { branch: 'feature/lexer', limit: 1 })[0]?.id ?? 0);
    const args = ['task', 'send', String(taskId), content, '--session', `codex-${codexSession}`, '--agent', 'codex'];
    const run = spawnSync(
      process.execPath,
      [CLI, ...args, '--to', 'claude', '--urgency', urgency, '--json', '--db', db, '--home', home],
      { encoding: 'utf8', env: { ...process.env, COLONY_CLOCK_FILE: clockFile } },
    );
    expect(run.stderr).toBe('');
    return JSON.parse(run.stdout).message_observation_id;
  }

  it("a blocking message from a Codex session tops the Claude session's next preface", () => {
    setClock(T0 + 200_000);
    expect(hook('session-start', 'codex', codex.sessionStart(codexSession, repo)).code).toBe(0);
    const id = send('stop editing src/a.ts, I am moving it', 'blocking');
    setClock(T0 + 260_000);
    const run = hook('session-start', 'claude-code', { ...claude.sessionStart(claudeSession, repo), source: 'resume' });
    const lines: string[] = JSON.parse(run.stdout).hookSpecificOutput.additionalContext.split('\n');
    expect(lines[1]).toContain(`also here: codex-${codexSession} (codex)`);
    expect(lines[2]).toBe('BLOCKING messages for you:');
    expect(lines[3]).toMatch(
      new RegExp(
        `^- #${id} on task #\\d+ from codex 1m ago: stop editing src/a.ts, I am moving it \\| reply: task_message \\{`,
      ),
    );
  });

  it("claims cross IDEs: each side's edit of src/a.ts warns about the other's claim, exit 0, no decision", () => {
    setClock(T0 + 265_000);
    const patch = '*** Begin Patch\n*** Update File: src/a.ts\n@@\n-const a = 1;\n+const a = 4;\n*** End Patch';
    // Claude claimed src/a.ts with its first Edit (above); the claim is still fresh.
    const codexRun = hook('pre-tool-use', 'codex', codex.applyPatch('PreToolUse', codexSession, repo, patch));
    expect(codexRun.code).toBe(0);
    expect(JSON.parse(codexRun.stdout).hookSpecificOutput.additionalContext).toContain(
      `src/a.ts claimed by claude-${claudeSession} (claude,`,
    );
    setClock(T0 + 268_000);
    const run = hook('pre-tool-use', 'claude-code', claude.preEdit(claudeSession, repo, join(repo, 'src/a.ts')));
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
    const out = JSON.parse(run.stdout);
    expect(Object.keys(out).sort()).toEqual(['hookSpecificOutput', 'systemMessage']);
    expect(out.systemMessage).toBe('colony: src/a.ts also claimed by another session (warning only)');
    expect(out.hookSpecificOutput.hookEventName).toBe('PreToolUse');
    expect(out.hookSpecificOutput.additionalContext).toMatch(
      new RegExp(
        `^colony: overlap: src/a.ts claimed by codex-${codexSession} \\(codex, task #\\d+, just now\\)\\. Claims are warnings, not locks`,
      ),
    );
    expect(out.hookSpecificOutput).not.toHaveProperty('permissionDecision');
  });

  it('the prompt reminder names only what arrived since', () => {
    setClock(T0 + 270_000);
    expect(
      hook('user-prompt-submit', 'claude-code', claude.userPromptSubmit(claudeSession, repo, 'go on')).stdout,
    ).toBe('');
    send('can you re-run the typecheck?', 'needs_reply');
    setClock(T0 + 280_000);
    const run = hook('user-prompt-submit', 'claude-code', claude.userPromptSubmit(claudeSession, repo, 'and now?'));
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({
      hookSpecificOutput: {
        hookEventName: 'UserPromptSubmit',
        additionalContext: 'colony: new for you: 1 message needing a reply. Call attention_inbox before continuing.',
      },
    });
  });
});

describe('Codex hooks', () => {
  const session = '019a4c1e-77d2-7c30-a1b5-5c1f2e9d8a77';
  const colonySession = `codex-${session}`;
  const patch = [
    '*** Begin Patch',
    '*** Update File: src/a.ts',
    '@@',
    '-const a = 1;',
    '+const a = 3;',
    '*** Add File: src/parser.ts',
    '+export const parse = () => null;',
    '*** End Patch',
  ].join('\n');

  it('in a git worktree joins the worktree branch task, and sees the Claude session on the other branch as elsewhere', () => {
    const run = hook('session-start', 'codex', codex.sessionStart(session, worktree));
    expect(run.code).toBe(0);
    const context: string = JSON.parse(run.stdout).hookSpecificOutput.additionalContext;
    expect(context).toContain(`you are session ${colonySession} (agent codex)`);
    expect(context).toMatch(new RegExp(`Task #\\d+: agent/codex/parser in ${worktree}; no one else here`));
  });

  it('apply_patch pre-tool-use prints nothing; post-tool-use records every file of the patch', () => {
    expect(hook('pre-tool-use', 'codex', codex.applyPatch('PreToolUse', session, worktree, patch))).toEqual({
      code: 0,
      stdout: '',
      stderr: '',
    });
    expect(hook('post-tool-use', 'codex', codex.applyPatch('PostToolUse', session, worktree, patch)).code).toBe(0);
    withStore((store) => {
      expect(editsOn(store, 'agent/codex/parser').map((o) => o.metadata)).toEqual([
        { tool: 'apply_patch', file_path: 'src/a.ts' },
        { tool: 'apply_patch', file_path: 'src/parser.ts' },
      ]);
    });
    expect(hook('user-prompt-submit', 'codex', codex.userPromptSubmit(session, worktree, 'continue')).code).toBe(0);
    expect(hook('stop', 'codex', codex.stop(session, worktree))).toEqual({ code: 0, stdout: '', stderr: '' });
  });
});

describe('outside a repository', () => {
  it('session-start registers the session and says no task was joined', () => {
    const outside = mkdtempSync(join(tmpdir(), 'colony-norepo-'));
    const run = hook('session-start', 'claude-code', claude.sessionStart('norepo-1', outside));
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout).hookSpecificOutput.additionalContext).toContain('is not in a git repository');
    const edit = hook('post-tool-use', 'claude-code', claude.postWrite('norepo-1', outside, join(outside, 'x.ts')));
    expect(edit).toEqual({ code: 0, stdout: '', stderr: '' });
  });
});

describe('bad input and failures: one stderr line, exit 1 (never 2), nothing written', () => {
  const valid = claude.preEdit('bad-1', repo, join(repo, 'src/a.ts'));
  const cases: Array<[string, string, string, unknown, RegExp]> = [
    [
      'malformed JSON',
      'pre-tool-use',
      'claude-code',
      '{"session_id": "x", ',
      /^colony: hook input for pre-tool-use is not JSON: /,
    ],
    ['empty stdin', 'pre-tool-use', 'claude-code', '', /^colony: no hook JSON on stdin for pre-tool-use$/],
    [
      'a missing field',
      'pre-tool-use',
      'codex',
      { ...valid, tool_input: undefined },
      /^colony: invalid pre-tool-use hook input: tool_input: /,
    ],
    [
      "another event's payload",
      'pre-tool-use',
      'claude-code',
      claude.stop('bad-1', repo),
      /hook input is a Stop event but the hook was registered for pre-tool-use/,
    ],
    [
      'an unknown event',
      'pre-tool-uses',
      'claude-code',
      valid,
      /^colony: unknown hook event "pre-tool-uses"; events: session-start, /,
    ],
    ['an unknown IDE', 'pre-tool-use', 'cursor', valid, /^colony: unknown --ide "cursor"; IDEs: claude-code, codex$/],
  ];

  it.each(cases)('%s', (_name, event, ide, input, message) => {
    const before = withStore((store) => countObservations(store));
    const run = hook(event, ide, input);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr.trimEnd()).toMatch(message);
    expect(run.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(withStore((store) => countObservations(store))).toBe(before);
    withStore((store) => expect(getSession(store, 'claude-bad-1')).toBeUndefined());
  });

  it('a missing --ide or an unknown flag is a usage error, still exit 1', () => {
    const noIde = spawnSync(process.execPath, [CLI, 'hook', 'run', 'stop', '--db', db], {
      input: '{}',
      encoding: 'utf8',
    });
    expect(noIde.status).toBe(1);
    expect(noIde.stderr).toMatch(/^colony: .*--ide/);
    const typo = hook('stop', 'codex', codex.stop('x', repo), ['--verbos']);
    expect(typo.code).toBe(1);
    expect(typo.stderr).toMatch(/^colony: unknown option --verbos for colony hook run; did you mean --verbose\?/);
  });

  it('a store colony cannot open fails the hook with exit 1, not 2', () => {
    const run = spawnSync(
      process.execPath,
      [CLI, 'hook', 'run', 'pre-tool-use', '--ide', 'claude-code', '--db', join(dir, 'repo/src/a.ts/colony.db')],
      { input: JSON.stringify(valid), encoding: 'utf8' },
    );
    expect(run.status).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr.trimEnd().split('\n')).toHaveLength(1);
  });

  it('does not wait for EOF: an IDE that keeps stdin open gets its answer', async () => {
    const child = spawn(process.execPath, [CLI, 'hook', 'run', 'stop', '--ide', 'codex', '--db', db], {
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    child.stdin.write(JSON.stringify(codex.stop('open-stdin', repo)));
    const code = await new Promise<number | null>((resolve, reject) => {
      const timer = setTimeout(() => {
        child.kill();
        reject(new Error('hook run waited for stdin to close'));
      }, 4_000);
      child.on('exit', (c) => {
        clearTimeout(timer);
        resolve(c);
      });
    });
    child.stdin.destroy();
    expect(code).toBe(0);
  });
});

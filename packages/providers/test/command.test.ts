import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { collectTurn, commandProvider, type ProviderEvent } from '../src/index.js';
import { until } from '../src/testing/index.js';

const CLI = join(import.meta.dirname, 'fake-cli');
const node = process.execPath;
const ask = (content: string) => ({
  model: 'sonnet',
  system: 'be brief',
  messages: [{ role: 'user' as const, content }],
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('command provider (real processes: fake agent CLIs)', () => {
  let cwd: string;
  beforeEach(() => {
    cwd = realpathSync(mkdtempSync(join(tmpdir(), 'colony-cmd-')));
  });
  afterEach(() => {
    rmSync(cwd, { recursive: true, force: true });
  });

  it('runs the claude preset in the cwd and turns stream-json into events', async () => {
    const argv = [
      node,
      join(CLI, 'fake-claude.mjs'),
      '-p',
      '{prompt}',
      '--output-format',
      'stream-json',
      '--verbose',
      '--model',
      '{model}',
      '--append-system-prompt',
      '{system}',
    ];
    const provider = commandProvider({ preset: 'claude', argv, cwd });
    const { events, end } = await collectTurn(provider.stream(ask('build it')));
    expect(events.filter((e) => e.type === 'text').map((e) => (e as { text: string }).text)).toEqual([
      `cwd=${cwd} model=claude-sonnet-5-5 system=be brief`,
      'done: build it',
    ]);
    expect(events.find((e) => e.type === 'tool_use')).toEqual({
      type: 'tool_use',
      id: 'toolu_1',
      name: 'Bash',
      input: { command: 'ls' },
      external: true,
    });
    expect(end).toMatchObject({
      type: 'stop',
      stop_reason: 'end_turn',
      cost_usd: 0.0123,
      usage: { input_tokens: 50, output_tokens: 20, cache_creation_input_tokens: 5, cache_read_input_tokens: 7 },
    });
  });

  it('reports a non-zero exit as a process error with the stderr tail', async () => {
    const argv = [node, join(CLI, 'fake-claude.mjs'), '-p', '{prompt}', '--model', '{model}'];
    const { end } = await collectTurn(commandProvider({ preset: 'claude', argv, cwd }).stream(ask('FAIL now')));
    expect(end).toMatchObject({ type: 'error', kind: 'process' });
    expect((end as { message: string }).message).toMatch(/exited with code 3: fake-claude: something broke/);
  });

  it('runs the codex preset: items become events, usage from turn.completed, system before the prompt', async () => {
    const argv = [node, join(CLI, 'fake-codex.mjs'), 'exec', '--json', '--model', '{model}', '{prompt}'];
    const { events, end } = await collectTurn(commandProvider({ preset: 'codex', argv, cwd }).stream(ask('fix')));
    expect(events.find((e) => e.type === 'tool_use')).toMatchObject({
      name: 'bash',
      input: { command: 'git status' },
      external: true,
    });
    expect(events.find((e) => e.type === 'text')).toEqual({ type: 'text', text: 'codex says: be brief\n\nfix' });
    expect(end).toMatchObject({
      type: 'stop',
      usage: { input_tokens: 60, cache_read_input_tokens: 40, output_tokens: 10 },
    });
    const failed = await collectTurn(commandProvider({ preset: 'codex', argv, cwd }).stream(ask('FAIL')));
    expect(failed.end).toMatchObject({
      type: 'error',
      kind: 'process',
      message: expect.stringContaining('model refused'),
    });
  });

  it('speaks colony jsonl: usage lines add up; a failed result is an error even on exit 0', async () => {
    const argv = [node, join(CLI, 'fake-jsonl.mjs'), '{prompt}'];
    const ok = await collectTurn(commandProvider({ preset: 'jsonl', argv, cwd }).stream(ask('hi')));
    expect(ok.end).toMatchObject({ type: 'stop', usage: { input_tokens: 4, output_tokens: 5 } });
    const bad = await collectTurn(commandProvider({ preset: 'jsonl', argv, cwd }).stream(ask('FAIL')));
    expect(bad.end).toMatchObject({ type: 'error', kind: 'process', message: expect.stringContaining('gave up') });
  });

  it('can hand the prompt over on stdin (past the argv size limit)', async () => {
    const script =
      'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.stringify({type:"text",text:String(s.length)})))';
    const provider = commandProvider({
      preset: 'jsonl',
      argv: [node, '-e', script, '{prompt}'],
      cwd,
      prompt_on_stdin: true,
    });
    const long = 'x'.repeat(300_000);
    const { events, end } = await collectTurn(
      provider.stream({ model: 'm', messages: [{ role: 'user', content: long }] }),
    );
    expect(events[0]).toEqual({ type: 'text', text: '300000' });
    expect(end.type).toBe('stop');
  });

  it('kills the whole process group on abort, even a CLI that ignores SIGTERM', async () => {
    const pidFile = join(cwd, 'grandchild.pid');
    const provider = commandProvider({
      preset: 'jsonl',
      argv: [node, join(CLI, 'fake-hang.mjs')],
      cwd,
      env: { FAKE_PID_FILE: pidFile },
      kill_grace_ms: 200,
    });
    const controller = new AbortController();
    const seen: ProviderEvent[] = [];
    for await (const event of provider.stream(ask('x'), { signal: controller.signal })) {
      seen.push(event);
      if (event.type === 'text') controller.abort();
    }
    expect(seen.at(-1)).toMatchObject({ type: 'error', kind: 'aborted' });
    const grandchild = Number(readFileSync(pidFile, 'utf8'));
    await until(() => !alive(grandchild), 3_000, 'grandchild to die');
  });

  it('ends with timeout after `timeout` seconds and kills the group', async () => {
    const pidFile = join(cwd, 'grandchild.pid');
    const provider = commandProvider({
      preset: 'jsonl',
      argv: [node, join(CLI, 'fake-hang.mjs')],
      cwd,
      env: { FAKE_PID_FILE: pidFile },
      timeout: 1,
      kill_grace_ms: 100,
    });
    const { end } = await collectTurn(provider.stream(ask('x')));
    expect(end).toMatchObject({
      type: 'error',
      kind: 'timeout',
      message: expect.stringContaining('timed out after 1s'),
    });
    // On a loaded machine the CLI may be killed before it starts its grandchild: then none leaked.
    if (existsSync(pidFile))
      await until(() => !alive(Number(readFileSync(pidFile, 'utf8'))), 3_000, 'grandchild to die');
  });

  it('says so when the program does not exist', async () => {
    const { end } = await collectTurn(
      commandProvider({ preset: 'codex', argv: ['/nonexistent/codex-cli', '{prompt}'], cwd }).stream(ask('x')),
    );
    expect(end).toMatchObject({
      type: 'error',
      kind: 'process',
      message: expect.stringContaining('failed to spawn /nonexistent/codex-cli'),
    });
  });
});

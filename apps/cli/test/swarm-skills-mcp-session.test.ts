/**
 * A `colony swarm start` session with the project's MCP servers and skills, end to end:
 * the built CLI on a temp repository, the real Anthropic SDK against the fake Messages
 * API. The agent's requests offer `mcp__colony__*` (colony's own MCP server over stdio)
 * and `skill`; a broken server is a warning; the calls are answered; the MCP server's
 * process is gone once the session stops.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type FakeAnthropic, type FakeAnthropicReply, startFakeAnthropic } from '@swarm/providers/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { COLONY_MCP } from './_scene';
import { agentOf, type StartedCli, swarmFixture, until } from './_swarm';

let fake: FakeAnthropic | null = null;
let started: StartedCli | null = null;
afterEach(async () => {
  if (started && started.child.exitCode === null) started.child.kill('SIGKILL');
  await started?.exited();
  await fake?.close();
});

// biome-ignore lint/suspicious/noExplicitAny: wire bodies
function backend(body: any): FakeAnthropicReply {
  if (agentOf(body) !== 'backend' || body.messages.length > 5) return { text: 'Nothing left to do.' };
  const step = (body.messages.length - 1) / 2;
  if (step === 0) return { tool_uses: [{ name: 'mcp__colony__list_sessions', input: { limit: 1 } }] };
  if (step === 1) return { tool_uses: [{ name: 'skill', input: { name: 'greet', arguments: 'world' } }] };
  return { text: 'done' };
}

describe('colony swarm start with mcpServers and skills', () => {
  it('offers mcp__<server>__<tool> and skill, answers both, and ends the MCP server with the session', async () => {
    fake = await startFakeAnthropic({ respond: (r) => backend(r.body) });
    const baseURL = fake.baseURL;
    let served = '';
    const f = swarmFixture((repo) => {
      served = join(repo, '..', 'served.db');
      return {
        agents: [{ name: 'backend', prompt: 'You own the API.' }],
        providers: {
          default: { type: 'anthropic', base_url: baseURL, api_key_env: 'FAKE_ANTHROPIC_KEY', max_retries: 0 },
        },
        defaults: { liveness: { idle_nudge_after_secs: null } },
        mcpServers: {
          colony: { transport: { type: 'stdio', command: process.execPath, args: [COLONY_MCP, '--db', served] } },
          broken: { transport: { type: 'stdio', command: join(repo, 'no-such-server') } },
        },
      };
    });
    mkdirSync(join(f.repo, '.claude/skills/greet'), { recursive: true });
    writeFileSync(
      join(f.repo, '.claude/skills/greet/SKILL.md'),
      '---\ndescription: Greet someone\n---\nSay hello to $0.\n',
    );
    f.git('add', '-A');
    f.git('commit', '-qm', 'skill');
    started = f.start();
    await started.waitFor(/session \d{8}-[0-9a-f]{4} started: backend, supervisor/);
    expect(started.output()).toMatch(/warning: MCP server broken failed to start: .*ENOENT/);
    expect(started.output()).toMatch(/mcp: colony connected \(\d+ tools\)/);
    const backendRequests = () => fake!.requests.filter((r) => agentOf(r.body) === 'backend');
    await until(async () => backendRequests().length >= 3, 20_000, 'three backend requests');
    const [first, , third] = backendRequests().map((r) => r.body);
    const names = first.tools.map((t: { name: string }) => t.name);
    expect(names).toEqual(expect.arrayContaining(['bash', 'task_post', 'mcp__colony__list_sessions', 'skill']));
    expect(names.some((n: string) => n.startsWith('mcp__broken__'))).toBe(false);
    const results = third.messages
      .slice(2)
      .flatMap((m: { role: string; content: unknown }) =>
        m.role === 'user' && Array.isArray(m.content) ? m.content : [],
      );
    expect(results).toEqual([
      expect.objectContaining({ type: 'tool_result', is_error: false }),
      expect.objectContaining({ type: 'tool_result', is_error: false, content: 'Say hello to world.\n' }),
    ]);
    expect(spawnSync('pgrep', ['-f', served], { encoding: 'utf8' }).stdout.trim()).not.toBe('');
    expect((await f.colony(['swarm', 'stop', '--discard'])).code).toBe(0);
    expect(await started.exited()).toBe(0);
    expect(spawnSync('pgrep', ['-f', served], { encoding: 'utf8' }).stdout.trim()).toBe('');
  }, 60_000);
});

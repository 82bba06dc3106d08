/**
 * An IDE-side agent and a running swarm session share one store: a real `colony mcp`
 * stdio process, driven by the MCP SDK client, sees the runtime agents in `hivemind`,
 * joins their thread and messages one with task_message; the session (`colony swarm
 * start --no-tui`, the real Anthropic SDK against a fake Messages API server) picks the
 * message up with its poll, wakes the idle agent, and its next prompt carries it.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { type FakeAnthropic, startFakeAnthropic } from '@swarm/providers/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { agentOf, type StartedCli, settingsFor, swarmFixture, systemText, until } from './_swarm';

const CLI = join(fileURLToPath(new URL('../../..', import.meta.url)), 'apps/cli/dist/cli.js');

let fake: FakeAnthropic | null = null;
let client: Client | null = null;
let started: StartedCli[] = [];
afterEach(async (ctx) => {
  if (ctx.task.result?.state === 'fail') for (const s of started) console.error(s.output());
  await client?.close();
  client = null;
  for (const s of started) if (s.child.exitCode === null) s.child.kill('SIGKILL');
  await Promise.all(started.map((s) => s.exited()));
  started = [];
  await fake?.close();
  fake = null;
});

describe('an IDE agent over colony mcp and a running swarm session', () => {
  it('sees the runtime agents in hivemind, messages one, and that agent’s next prompt carries the message', async () => {
    fake = await startFakeAnthropic({ respond: () => ({ text: 'Understood.' }) });
    const f = swarmFixture(settingsFor(fake.baseURL));
    const start = f.start();
    started.push(start);
    await start.waitFor(/session \d{8}-[0-9a-f]{4} started/);
    const idle = await until(
      async () => {
        const s = await f.status();
        return s.agents.every((a) => a.state === 'SessionComplete' && a.session_seq === 1) && s;
      },
      15_000,
      'idle agents',
    );
    const id = idle.session!.id;

    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
    env.COLONY_HOME = f.home;
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, 'mcp', '--db', f.db, '--home', f.home, '--root', f.repo],
      cwd: f.repo,
      env,
      stderr: 'pipe',
    });
    client = new Client({ name: 'claude-code-test', version: '0.0.0' });
    await client.connect(transport);
    // biome-ignore lint/suspicious/noExplicitAny: tool payloads are asserted field by field
    const call = async (name: string, args: Record<string, unknown>): Promise<any> => {
      const result = await client!.callTool({ name, arguments: args });
      const text = (result.content as { text: string }[])[0]!.text;
      if (result.isError) throw new Error(`${name}: ${text}`);
      return JSON.parse(text);
    };

    const hive = await call('hivemind', { repo_root: f.repo });
    const lanes = (hive.sessions as { session_id: string; agent: string }[]).map((s) => `${s.agent}:${s.session_id}`);
    expect(lanes).toEqual(
      expect.arrayContaining([
        `backend:swarm-${id}-backend`,
        `frontend:swarm-${id}-frontend`,
        `supervisor:swarm-${id}-supervisor`,
      ]),
    );
    const thread = await call('task_thread', {
      repo_root: f.repo,
      branch: 'main',
      session_id: 'claude-ide-1',
      agent: 'claude',
    });
    const before = fake.requests.length;
    const sent = await call('task_message', {
      task_id: thread.task_id,
      session_id: 'claude-ide-1',
      agent: 'claude',
      content: 'Please keep the public API stable.',
      to_session_id: `swarm-${id}-backend`,
      urgency: 'fyi',
    });
    expect(sent.status).toBe('unread');

    const next = await until(
      async () =>
        fake!.requests
          .slice(before)
          .find((r) => agentOf(r.body) === 'backend' && systemText(r.body).includes('Messages from teammates')),
      15_000,
      'the next backend request',
    );
    expect(systemText(next.body)).toMatch(/From claude \(\d+s ago\):\nPlease keep the public API stable\./);
    const read = await f.tool('task_messages', {
      session_id: `swarm-${id}-backend`,
      agent: 'backend',
      unread_only: false,
    });
    expect(read as unknown).toMatchObject([{ from_agent: 'claude', status: 'read' }]);

    expect((await f.colony(['swarm', 'stop', '--discard'])).code).toBe(0);
    expect(await start.exited()).toBe(0);
  }, 60_000);
});

/**
 * The examples are documentation that runs: each is executed as its own process.
 * The model loops run the real @anthropic-ai/sdk (or plain fetch) against local
 * servers on 127.0.0.1 speaking the provider's API: no key, no internet.
 */
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { getSchemas, openColony } from '@swarm/core';
import { afterEach, describe, expect, it } from 'vitest';
import { OFFLINE_SCRIPT } from '../examples/_mesh-demo.mjs';
import { startFakeAnthropic } from './support/fake-anthropic.mjs';
import { startFakeOpenAI } from './support/fake-openai.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const run = (file: string, args: string[] = []) =>
  execFileSync(process.execPath, [join(root, 'examples', file), ...args], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, COLONY_HOME: mkdtempSync(join(tmpdir(), 'colony-example-home-')) },
    // Bounded below every test's own timeout: a hung example is killed, not left behind.
    timeout: 85_000,
  });

describe('examples', () => {
  it('swarm-session-scripted runs an agent session offline and merges both agents on stop', () => {
    const out = run('swarm-session-scripted.mjs');
    expect(out).toMatch(/session \d{8}-[0-9a-f]{4} started: backend, frontend, supervisor/);
    expect(out).toContain('backend: merged');
    expect(out).toMatch(/git log --first-parent:\nMerge agent: frontend\nMerge agent: backend\ninit/);
  }, 90_000);

  it('two-agents-demo shares memory between two MCP server processes', () => {
    const out = run('two-agents-demo.mjs');
    expect(out).toMatch(/claude\s+opened task #\d+/);
    expect(out).toMatch(/codex\s+search "rate limiter" -> \d+ compact hits/);
    expect(out).toMatch(/\[failed_approach\] Run \d+: a global mutex/);
    expect(out).toContain("sees codex's reply from the other process");
  });

  it('library-agent-loop drives colony through handleToolCall from OpenAI tool schemas', () => {
    const out = run('library-agent-loop.mjs');
    expect(out).toContain('framework registered 20 colony tools');
    expect(out).toMatch(/task_post -> ok: \{"id":\d+/);
    expect(out).toMatch(/search -> ok: \[\{"id":\d+,"kind":"decision"/);
    expect(out).toContain('task_post -> error INVALID_PARAMETERS');
  });

  it('plan-from-script publishes a plan from a script and two agents work it wave by wave', () => {
    const out = run('plan-from-script.mjs');
    expect(out).toContain('dry run: would publish; waves 0 1 1 2');
    expect(out).toContain('published add-widget-page: 4 sub-tasks on spec/add-widget-page/sub-N');
    expect(out).toMatch(/wave 0: \w+ completed sub-0 \(packages\/storage\/src\/widgets\.ts\), unblocked 1, 2/);
    expect(out).toMatch(/wave 1: claude completed sub-1 .*\nwave 1: codex completed sub-2 .*, unblocked 3/);
    expect(out).toContain('plan add-widget-page: 4/4 completed');
  });
});

const PROVIDER_ENV = [
  'ANTHROPIC_API_KEY',
  'ANTHROPIC_BASE_URL',
  'ANTHROPIC_AUTH_TOKEN',
  'OPENAI_API_KEY',
  'OPENAI_BASE_URL',
];

/** Runs an example as a process without blocking this one (the fake servers live here). */
async function runAsync(file: string, args: string[], env: Record<string, string>) {
  const home = mkdtempSync(join(tmpdir(), 'colony-example-home-'));
  const base = Object.fromEntries(Object.entries(process.env).filter(([k]) => !PROVIDER_ENV.includes(k)));
  const { stdout } = await promisify(execFile)(process.execPath, [join(root, 'examples', file), ...args], {
    cwd: root,
    encoding: 'utf8',
    env: { ...base, COLONY_HOME: home, ...env },
  });
  return { out: stdout, home };
}

/** What the team's run left in the store, read back through the tools. */
async function storeEffects(home: string) {
  const colony = openColony({ home });
  const call = async (name: string, args: Record<string, unknown>) => {
    const outcome = await colony.handleToolCall(name, args);
    return outcome.ok ? outcome.value : outcome.error;
  };
  try {
    return {
      summary: await call('get_context', { agent_name: 'ReportGenerator', key: 'report_summary' }),
      metricsForIntruder: await call('get_context', { agent_name: 'Intruder', key: 'daily_metrics' }),
      keysForIntruder: await call('list_context_keys', { agent_name: 'Intruder' }),
      collectorInbox: await call('get_messages_from_agents', { agent_name: 'DataCollector' }),
      reportInbox: await call('get_messages_from_agents', { agent_name: 'ReportGenerator' }),
    };
  } finally {
    await colony.close();
  }
}

function expectTeamEffects(effects: Awaited<ReturnType<typeof storeEffects>>) {
  expect(effects.summary).toMatchObject({ success: true, value: { users: 1500, trend: 'up' }, owner: 'DataAnalyst' });
  expect(effects.metricsForIntruder).toMatchObject({ success: false, error_code: 'ACCESS_DENIED' });
  expect(effects.keysForIntruder).toMatchObject({ keys: [] });
  expect(effects.collectorInbox).toMatchObject({
    messages: [expect.objectContaining({ from_agent: 'DataAnalyst', confirms_message_id: expect.any(Number) })],
  });
  expect(effects.reportInbox).toMatchObject({
    messages: [
      expect.objectContaining({
        from_agent: 'DataCollector',
        message: "Today's metrics are in",
        thread_id: expect.stringMatching(/^thread-\d+$/),
      }),
    ],
  });
}

const anthropicTools = () =>
  getSchemas().map(({ function: f }) => ({ name: f.name, description: f.description, input_schema: f.parameters }));

describe('model loops over the context mesh (seed 001)', () => {
  const closers: Array<() => Promise<void>> = [];
  afterEach(async () => {
    await Promise.all(closers.splice(0).map((close) => close()));
  });

  it.each([
    ['not streaming', []],
    ['streaming', ['--stream']],
  ] as const)('anthropic-tool-use-loop drives every tool through the real SDK (%s)', async (_mode, args) => {
    const server = await startFakeAnthropic({ script: OFFLINE_SCRIPT });
    closers.push(server.close);
    const { out, home } = await runAsync('anthropic-tool-use-loop.mjs', [...args], {
      ANTHROPIC_BASE_URL: server.baseURL,
      ANTHROPIC_API_KEY: 'test-key',
    });
    // 3 + 4 + 2 turns: one request each.
    expect(server.requests).toHaveLength(9);
    for (const { headers, body } of server.requests) {
      // The key goes as x-api-key or as a bearer token, depending on the SDK version.
      expect(headers['x-api-key'] ?? headers.authorization).toMatch(/^(Bearer )?test-key$/);
      expect(headers['anthropic-version']).toBeTruthy();
      expect(body.tools).toEqual(anthropicTools());
      expect(body.stream === true).toBe(args.length > 0);
    }
    // The model saw colony's answers: the analyst's batch request carries the metrics it read.
    const analystTurn3 = server.requests[5]!.body.messages.at(-1).content;
    expect(analystTurn3[1]).toMatchObject({ type: 'tool_result', is_error: false });
    expect(JSON.parse(analystTurn3[1].content).value).toEqual({ users: 1500, revenue: 50000 });
    const intruderResult = server.requests[8]!.body.messages.at(-1).content[0];
    expect(intruderResult).toMatchObject({ type: 'tool_result', is_error: true });
    expect(out).toContain('[DataAnalyst] says: Users today: 1500.');
    expect(out).toContain('[Intruder] get_context -> ACCESS_DENIED');
    for (const tool of getSchemas().map((s) => s.function.name)) expect(out).toMatch(new RegExp(`\\] ${tool} -> ok`));
    expectTeamEffects(await storeEffects(home));
  });

  it('openai-function-calling-loop drives every tool with the seed schemas as OpenAI tools', async () => {
    const server = await startFakeOpenAI({ script: OFFLINE_SCRIPT });
    closers.push(server.close);
    const { out, home } = await runAsync('openai-function-calling-loop.mjs', [], {
      OPENAI_BASE_URL: server.baseURL,
      OPENAI_API_KEY: 'test-key',
    });
    expect(server.requests).toHaveLength(9);
    for (const { headers, body } of server.requests) {
      expect(headers.authorization).toBe('Bearer test-key');
      expect(body.tools).toEqual(getSchemas());
      expect(body.tool_choice).toBe('auto');
    }
    const toolMessages = server.requests[8]!.body.messages.filter((m: { role: string }) => m.role === 'tool');
    expect(JSON.parse(toolMessages[0].content)).toMatchObject({ success: false, error_code: 'ACCESS_DENIED' });
    expect(out).toContain('[DataAnalyst] says: Users today: 1500.');
    expectTeamEffects(await storeEffects(home));
  });

  it('both loops run offline, without keys, on their bundled scripted servers', async () => {
    for (const file of ['anthropic-tool-use-loop.mjs', 'openai-function-calling-loop.mjs']) {
      const { out, home } = await runAsync(file, [], {});
      expect(out, file).toMatch(/^no (ANTHROPIC|OPENAI)_API_KEY: a scripted .* server on http:\/\/127\.0\.0\.1:\d+/);
      expect(out, file).toContain('[Intruder] says: Refused: ACCESS_DENIED.');
      expectTeamEffects(await storeEffects(home));
    }
  });
});

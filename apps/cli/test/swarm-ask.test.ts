/**
 * An `ask` answered by the operator in a real `colony swarm start` session: the built CLI
 * on a temp repository, the real Anthropic SDK against the fake Messages API. The agent
 * asks three times for a `Bash(echo *)` call (an ask rule); each ask is a needs_reply
 * message to the operator. `colony swarm send backend allow` runs the first call,
 * `colony swarm send backend "deny not on Fridays"` refuses the second with those words,
 * and the third, unanswered, is denied after `permissions.ask_timeout_secs`.
 */
import { type FakeAnthropic, type FakeAnthropicReply, startFakeAnthropic } from '@swarm/providers/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { agentOf, type StartedCli, swarmFixture, systemText, until } from './_swarm';

let fake: FakeAnthropic | null = null;
let started: StartedCli | null = null;
afterEach(async () => {
  if (started && started.child.exitCode === null) started.child.kill('SIGKILL');
  await started?.exited();
  await fake?.close();
});

const WORDS = ['one', 'two', 'three'];

// biome-ignore lint/suspicious/noExplicitAny: wire bodies
function backend(body: any): FakeAnthropicReply {
  if (agentOf(body) !== 'backend') return { text: 'Nothing to do.' };
  const step = (body.messages.length - 1) / 2;
  const word = WORDS[step];
  return word ? { tool_uses: [{ name: 'bash', input: { command: `echo ran-${word}` } }] } : { text: 'done' };
}

describe('an ask answered by the operator', () => {
  it('allow runs the call, deny refuses it with the words, no answer denies after the timeout', async () => {
    fake = await startFakeAnthropic({ respond: (r) => backend(r.body) });
    const baseURL = fake.baseURL;
    const f = swarmFixture(() => ({
      agents: [{ name: 'backend', prompt: 'You own the API.' }],
      providers: {
        default: { type: 'anthropic', base_url: baseURL, api_key_env: 'FAKE_ANTHROPIC_KEY', max_retries: 0 },
      },
      defaults: { liveness: { idle_nudge_after_secs: null } },
      permissions: { ask: ['Bash(echo *)'], ask_timeout_secs: 2 },
    }));
    started = f.start();
    await started.waitFor(/session \d{8}-[0-9a-f]{4} started/);
    const id = /session (\d{8}-[0-9a-f]{4}) started/.exec(started.output())![1]!;
    const asks = async () => {
      const inbox = (await f.tool('task_messages', {
        session_id: `swarm-${id}-operator`,
        agent: 'operator',
      })) as unknown as { urgency: string }[];
      return inbox.filter((m) => m.urgency === 'needs_reply').length;
    };
    await until(async () => (await asks()) >= 1, 20_000, 'the first ask');
    expect((await f.colony(['swarm', 'send', 'backend', 'allow'])).code).toBe(0);
    await until(async () => (await asks()) >= 2, 20_000, 'the second ask');
    expect((await f.colony(['swarm', 'send', 'backend', 'deny', 'not', 'on', 'Fridays'])).code).toBe(0);
    await until(async () => (await asks()) >= 3, 20_000, 'the third ask');
    const backendRequest = (messages: number) =>
      fake!.requests.find((r) => agentOf(r.body) === 'backend' && r.body.messages.length === messages);
    const last = await until(async () => backendRequest(7), 20_000, 'the fourth backend request');
    // The third call was asked after the third request was answered, and denied only when
    // the 2 s ask timeout ran out: the fourth request comes at least that long after it.
    expect(last.at - (backendRequest(5)?.at ?? Number.POSITIVE_INFINITY)).toBeGreaterThanOrEqual(2000);
    const results = last.body.messages
      .slice(1)
      .flatMap((m: { role: string; content: unknown }) =>
        m.role === 'user' && Array.isArray(m.content) ? m.content : [],
      );
    expect(results).toHaveLength(3);
    expect(results[0]).toMatchObject({ is_error: false });
    expect(JSON.stringify(results[0].content)).toContain('ran-one');
    expect(results[1]).toMatchObject({ is_error: true });
    expect(results[1].content).toMatch(/^permission denied: .*; denied by the operator: deny not on Fridays$/);
    expect(results[2]).toMatchObject({ is_error: true });
    expect(results[2].content).toMatch(/no operator approval within 2s \(needs_reply sent\); denied$/);
    // The answers were taken for the ask: they never reach the agent's prompt.
    const mail = last.body.messages.filter((m: { content: unknown }) => typeof m.content === 'string');
    expect(JSON.stringify(mail)).not.toMatch(/allow|Fridays/);
    expect(systemText(last.body)).not.toMatch(/allow|Fridays/);
    expect((await f.colony(['swarm', 'stop', '--discard'])).code).toBe(0);
    expect(await started.exited()).toBe(0);
  }, 60_000);
});

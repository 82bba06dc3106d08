import { anthropicProvider, resolveModel, scriptedProvider } from '@swarm/providers';
import { type FakeAnthropic, startFakeAnthropic } from '@swarm/providers/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type AgentTools,
  combineTools,
  runAgentLoop,
  SkillScope,
  skillTool,
  type ToolCall,
  withSkillScope,
} from '../src/index.js';
import { skillDirs, skillText } from './_skills.js';

/** Two plain tools standing in for the agent's own: read answers from a map, bash records what ran. */
function agentOwnTools(ran: string[]): AgentTools {
  const schema = (name: string) => ({ name, description: name, input_schema: { type: 'object', properties: {} } });
  return {
    schemas: [schema('read'), schema('bash')],
    executor: {
      async execute(call: ToolCall) {
        ran.push(call.name);
        return call.name === 'read' ? { content: '# hello from README' } : { content: 'bash ran' };
      },
    },
  };
}

const start = [{ role: 'user' as const, content: 'Begin.' }];

describe('the skill tool: a context: fork skill runs as a sub-agent on the fake Messages API', () => {
  let fake: FakeAnthropic;
  beforeEach(async () => {
    fake = await startFakeAnthropic();
  });
  afterEach(async () => {
    await fake.close();
  });

  it('runs the substituted body as a nested loop with only the allowed tools, and returns its final text', async () => {
    const d = skillDirs();
    d.projectSkill(
      'research',
      skillText(
        'description: Research a topic\ncontext: fork\nagent: researcher\nallowed-tools: [Read]\nmodel: haiku',
        'Research $ARGUMENTS thoroughly; start with $0.',
      ),
    );
    const provider = anthropicProvider({ base_url: fake.baseURL, api_key_env: 'K', env: { K: 'k' }, max_retries: 0 });
    const ran: string[] = [];
    let tools: AgentTools = agentOwnTools(ran);
    const skill = skillTool({
      roots: d.roots,
      fork: () => ({
        provider,
        model: 'sonnet',
        tools: tools.schemas,
        executor: tools.executor,
        agents: { researcher: { system: 'You are the researcher.' } },
      }),
    });
    tools = combineTools(agentOwnTools(ran), skill);
    fake.enqueue(
      { tool_uses: [{ id: 't1', name: 'skill', input: { name: 'research', arguments: 'README.md colony' } }] },
      {
        tool_uses: [
          { id: 's1', name: 'read', input: { path: 'README.md' } },
          { id: 's2', name: 'bash', input: { command: 'rm -rf /' } },
        ],
      },
      { text: 'README says hello.' },
      { text: 'Done.' },
    );
    const result = await runAgentLoop({
      provider,
      model: 'sonnet',
      system: 'You are backend.',
      messages: start,
      tools: tools.schemas,
      executor: tools.executor,
    });
    expect(result).toMatchObject({ outcome: 'end_turn', turns: 2 });
    expect(fake.requests).toHaveLength(4);
    const [parent1, fork1, fork2, parent2] = fake.requests.map((r) => r.body);
    expect(parent1.tools.map((t: { name: string }) => t.name)).toEqual(['read', 'bash', 'skill']);
    expect(parent1.tools[2].description).toContain('research: Research a topic');
    expect(fork1.system).toBe('You are the researcher.');
    expect(fork1.model).toBe(resolveModel('haiku'));
    expect(parent1.model).toBe(resolveModel('sonnet'));
    expect(fork1.messages).toEqual([
      { role: 'user', content: 'Research README.md colony thoroughly; start with README.md.' },
    ]);
    expect(fork1.tools.map((t: { name: string }) => t.name)).toEqual(['read']);
    expect(fork2.messages[2].content).toEqual([
      { type: 'tool_result', tool_use_id: 's1', content: '# hello from README', is_error: false },
      {
        type: 'tool_result',
        tool_use_id: 's2',
        content: 'tool bash is not available to skill "research"',
        is_error: true,
      },
    ]);
    expect(ran).toEqual(['read']);
    expect(parent2.messages[2].content).toEqual([
      { type: 'tool_result', tool_use_id: 't1', content: 'README says hello.', is_error: false },
    ]);
  });
});

describe('the skill tool: inline skills and refusals', () => {
  it('returns the substituted body, then refuses tools outside allowed-tools until the scope is cleared', async () => {
    const d = skillDirs();
    d.flatSkill('look', skillText('allowed-tools: [read]', 'Look at $0 only.'));
    const ran: string[] = [];
    const scope = new SkillScope();
    const tools = combineTools(agentOwnTools(ran), skillTool({ roots: d.roots, scope }));
    const provider = scriptedProvider([
      { tool_calls: [{ id: 'a', name: 'bash', input: {} }] },
      { tool_calls: [{ id: 'b', name: 'skill', input: { name: 'look', arguments: ['src/x.ts'] } }] },
      {
        tool_calls: [
          { id: 'c', name: 'bash', input: {} },
          { id: 'd', name: 'read', input: {} },
        ],
      },
      { text: 'ok' },
    ]);
    const results: Array<{ content: string; is_error?: boolean }> = [];
    await runAgentLoop({
      provider,
      model: 'm',
      messages: start,
      tools: tools.schemas,
      executor: withSkillScope(tools.executor, scope),
      onEvent: (e) => {
        if (e.type === 'tool_result') results.push({ content: String(e.result.content), is_error: e.result.is_error });
      },
    });
    expect(results).toEqual([
      { content: 'bash ran', is_error: false },
      { content: 'Look at src/x.ts only.', is_error: false },
      { content: 'tool bash is not allowed while skill "look" runs (allowed-tools: read)', is_error: true },
      { content: '# hello from README', is_error: false },
    ]);
    expect(ran).toEqual(['bash', 'read']);
    scope.clear();
    expect(
      await withSkillScope(tools.executor, scope).execute(
        { id: 'e', name: 'bash', input: {} },
        { signal: new AbortController().signal },
      ),
    ).toEqual({ content: 'bash ran' });
  });

  it('refuses with stable codes: invalid name, not found, disable-model-invocation, unknown agent', async () => {
    const d = skillDirs();
    d.projectSkill('user-only', skillText('disable-model-invocation: true', 'x'));
    d.projectSkill('forker', skillText('context: fork\nagent: nobody', 'x'));
    const tool = skillTool({
      roots: d.roots,
      fork: () => ({ provider: scriptedProvider([]), model: 'm', tools: [], executor: agentOwnTools([]).executor }),
    });
    const call = (input: Record<string, unknown>) =>
      tool.executor.execute({ id: 'x', name: 'skill', input }, { signal: new AbortController().signal });
    expect(await call({ name: '../x' })).toMatchObject({
      is_error: true,
      content: expect.stringMatching(/^invalid_name: /),
    });
    expect(await call({ name: 'nope' })).toMatchObject({
      is_error: true,
      content: expect.stringMatching(/^not_found: /),
    });
    expect(await call({ name: 'user-only' })).toMatchObject({
      is_error: true,
      content: expect.stringMatching(/^model_invocation_disabled: /),
    });
    expect(await call({ name: 'forker' })).toMatchObject({
      is_error: true,
      content: expect.stringMatching(/^unknown_agent: /),
    });
    expect(await call({ nam: 'x' })).toMatchObject({
      is_error: true,
      content: expect.stringContaining('invalid input for skill'),
    });
    expect(tool.schemas[0]!.description).not.toContain('user-only');
  });
});

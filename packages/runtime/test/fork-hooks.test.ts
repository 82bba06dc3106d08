/**
 * SubagentStart / SubagentStop around a `context: fork` skill, end to end: the real
 * Anthropic SDK against the fake Messages API, hooks as real processes reading their
 * context on stdin. Both fire with the skill's fields; a SubagentStart hook that exits 2
 * refuses the fork (its stderr is the tool error) and the sub-agent never runs.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { anthropicProvider } from '@swarm/providers';
import { type FakeAnthropic, startFakeAnthropic } from '@swarm/providers/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type AgentTools,
  combineTools,
  type HooksConfig,
  LifecycleHooks,
  runAgentLoop,
  skillTool,
} from '../src/index.js';
import { skillDirs, skillText } from './_skills.js';

let fake: FakeAnthropic;
beforeEach(async () => {
  fake = await startFakeAnthropic();
});
afterEach(async () => {
  await fake.close();
});

/** The agent calls the `research` fork skill once; returns the tool_result it read. */
async function forkOnce(config: HooksConfig) {
  const d = skillDirs();
  d.projectSkill('research', skillText('context: fork\nagent: researcher', 'Research $ARGUMENTS.'));
  const hooks = new LifecycleHooks(config, { session_id: 's-1', cwd: d.project, agent_name: 'backend' });
  const provider = anthropicProvider({ base_url: fake.baseURL, api_key_env: 'K', env: { K: 'k' }, max_retries: 0 });
  let tools: AgentTools = { schemas: [], executor: { execute: async () => ({ content: '' }) } };
  const skill = skillTool({
    roots: d.roots,
    fork: () => ({
      provider,
      model: 'sonnet',
      tools: tools.schemas,
      executor: tools.executor,
      agents: { researcher: { system: 'You research.' } },
      hooks,
    }),
  });
  tools = combineTools(skill);
  const result = await runAgentLoop({
    provider,
    model: 'sonnet',
    messages: [{ role: 'user', content: 'Begin.' }],
    tools: tools.schemas,
    executor: tools.executor,
  });
  expect(result.outcome).toBe('end_turn');
  const last = fake.requests.at(-1)!.body.messages.at(-1).content[0];
  return { dir: d.project, result: last as { content: string; is_error: boolean } };
}

const CALL = { tool_uses: [{ id: 't1', name: 'skill', input: { name: 'research', arguments: 'caching' } }] };

describe('SubagentStart / SubagentStop around a fork', () => {
  it('both fire with the skill name, the sub-agent type and (on stop) the outcome', async () => {
    fake.enqueue(CALL, { text: 'Caching is fine.' }, { text: 'Done.' });
    const { dir, result } = await forkOnce({
      subagent_start: [{ matcher: 'backend', hooks: [{ type: 'command', command: 'cat > start.json' }] }],
      subagent_stop: [{ hooks: [{ type: 'command', command: 'cat > stop.json' }] }],
    });
    expect(result).toMatchObject({ content: 'Caching is fine.', is_error: false });
    const read = (name: string) => JSON.parse(readFileSync(join(dir, name), 'utf8'));
    const common = {
      session_id: 's-1',
      cwd: dir,
      agent_name: 'backend',
      skill_name: 'research',
      subagent_type: 'researcher',
    };
    expect(read('start.json')).toEqual({ ...common, hook_event_name: 'SubagentStart' });
    expect(read('stop.json')).toEqual({ ...common, hook_event_name: 'SubagentStop', outcome: 'end_turn' });
  });

  it('a SubagentStart hook exiting 2 refuses the fork with its stderr; the sub-agent never runs', async () => {
    fake.enqueue(CALL, { text: 'Done.' });
    const { dir, result } = await forkOnce({
      subagent_start: [{ hooks: [{ type: 'command', command: 'echo "no forks today" >&2; exit 2' }] }],
      subagent_stop: [{ hooks: [{ type: 'command', command: 'touch stopped' }] }],
    });
    expect(result).toMatchObject({ content: 'blocked by SubagentStart hook: no forks today', is_error: true });
    expect(fake.requests).toHaveLength(2);
    expect(fake.requests[1]!.body.system).not.toBe('You research.');
    expect(existsSync(join(dir, 'stopped'))).toBe(false);
  });
});

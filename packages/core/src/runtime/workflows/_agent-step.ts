/**
 * @module runtime/workflows/_agent-step
 * One agent session of a workflow stage or an iteration: the project's runtime settings
 * give the agent (by name; default the only agent, else the default provider), its
 * provider (any kind: `scripted` and `command` need no model), model and role prompt.
 * The agent gets the runtime's built-in tools confined to the repository, plus
 * `workflow_output` to report named outputs; the prompt is the stage's. Bounded by
 * `max_turns` and the timeout; an expected failure is a value.
 */
import {
  agentTools,
  createModelProvider,
  loadRuntimeConfig,
  memoryMailbox,
  runAgentLoop,
  type ToolExecutor,
} from '@swarm/runtime';
import type { StepResult } from './_command-step.js';

export interface AgentStepOptions {
  readonly home: string;
  readonly root: string;
  readonly agent?: string | undefined;
  readonly prompt: string;
  readonly max_turns?: number | undefined;
  /** Seconds. */
  readonly timeout?: number | undefined;
  /** Names the agent's colony session (`workflow-<run>-<stage>`). */
  readonly session: string;
  readonly signal?: AbortSignal;
}

const OUTPUT_TOOL = {
  name: 'workflow_output',
  description: 'Report a named output of this workflow stage (shown by `colony swarm workflow show`).',
  input_schema: {
    type: 'object',
    properties: { key: { type: 'string' }, value: { type: 'string' } },
    required: ['key', 'value'],
  },
};

export async function runAgentStep(o: AgentStepOptions): Promise<StepResult> {
  const fail = (output: string): StepResult => ({ ok: false, exit_code: 1, output, stdout: '' });
  const loaded = loadRuntimeConfig({ home: o.home, projectRoot: o.root });
  if (!loaded.config) return fail(loaded.errors.map((e) => e.message).join('\n'));
  const config = loaded.config;
  const agent = o.agent
    ? config.agents.find((a) => a.name === o.agent)
    : config.agents.length === 1
      ? config.agents[0]
      : undefined;
  if (o.agent && !agent) return fail(`unknown agent: ${o.agent}`);
  const providerName = agent?.provider ?? config.defaults.provider;
  const provider = config.providers[providerName];
  if (!provider)
    return fail(`failed to spawn agent ${agent?.name ?? 'default'}: provider ${providerName} is not configured`);
  const name = agent?.name ?? 'workflow';
  const timeout = o.timeout ?? 900;
  const tools = agentTools({
    worktree: o.root,
    agent: name,
    colony_session_id: o.session,
    env: {},
    mailbox: memoryMailbox(() => Date.now()),
  });
  const outputs: Record<string, string> = {};
  const executor: ToolExecutor = {
    async execute(call, options) {
      if (call.name !== OUTPUT_TOOL.name) return tools.executor.execute(call, options);
      outputs[String(call.input.key)] = String(call.input.value);
      return { content: `recorded output ${String(call.input.key)}` };
    },
  };
  const result = await runAgentLoop({
    provider: createModelProvider(provider, { cwd: o.root, session_timeout: timeout }),
    model: agent?.model_id ?? config.supervisor.model_id,
    ...(agent?.prompt ? { system: agent.prompt } : {}),
    messages: [{ role: 'user', content: o.prompt }],
    tools: [...tools.schemas, OUTPUT_TOOL],
    executor,
    budgets: { max_turns: o.max_turns ?? 20 },
    timeout_ms: timeout * 1000,
    ...(o.signal ? { signal: o.signal } : {}),
  });
  const text = lastText(result.messages);
  const lines = [...Object.entries(outputs).map(([k, v]) => `${k}: ${v}`), ...(text ? [text] : [])];
  if (result.outcome === 'end_turn') return { ok: true, exit_code: 0, output: lines.join('\n'), stdout: text };
  const why =
    result.outcome === 'timeout' ? `agent ${name} timed out after ${timeout}s` : `agent ${name}: ${result.reason}`;
  return fail([why, ...lines].join('\n'));
}

function lastText(messages: readonly { role: string; content: unknown }[]): string {
  const last = [...messages].reverse().find((m) => m.role === 'assistant');
  if (!last) return '';
  if (typeof last.content === 'string') return last.content.trim();
  return (last.content as { type: string; text?: string }[])
    .filter((b) => b.type === 'text')
    .map((b) => b.text ?? '')
    .join('\n')
    .trim();
}

/**
 * @module skills/fork
 * `context: fork`: the skill runs as a sub-agent, a nested agent loop whose first user
 * message is the substituted body, whose tools are the invoking agent's tools allowed
 * by `allowed-tools` (never `skill`: forks do not nest), on the same provider, with the
 * skill's `model` when set. Its system prompt is the prompt of the agent named by
 * `agent` when the session has one, else a short sub-agent prompt. Its final text is
 * the tool result; a sub-agent that did not finish is an error result saying why.
 * SubagentStart fires before the sub-agent runs (a blocking hook refuses it) and
 * SubagentStop after it ends, however it ends (fork-hooks.ts).
 */
import type { ChatMessage, ModelProvider, ToolSchema } from '@swarm/providers';
import { type LoopEvent, runAgentLoop } from '../loop/agent-loop.js';
import type { ToolExecutor, ToolResult } from '../loop/tool-caller.js';
import type { SkillDefinition } from './discover.js';
import { type ForkHooks, subagentStart, subagentStop } from './fork-hooks.js';
import { refusal, type SkillRefusal } from './skill-error.js';
import { toolFilter } from './tool-filter.js';

export const DEFAULT_FORK_MAX_TURNS = 20;

export interface ForkAgent {
  readonly system: string;
  readonly model?: string;
}

export interface ForkOptions {
  readonly provider: ModelProvider;
  /** The invoking agent's model (used unless the skill or its agent names one). */
  readonly model: string;
  /** The invoking agent's tools; the fork gets those `allowed-tools` allows. */
  readonly tools: readonly ToolSchema[];
  readonly executor: ToolExecutor;
  /** Agents a skill's `agent` may name. */
  readonly agents?: Readonly<Record<string, ForkAgent>>;
  readonly max_turns?: number;
  readonly onEvent?: (event: LoopEvent) => void;
  /** The invoking agent's lifecycle hooks: SubagentStart / SubagentStop. */
  readonly hooks?: ForkHooks | null;
}

export function forkSystemPrompt(skill: string): string {
  return `You are a sub-agent running the skill "${skill}". Do the task you are given with the tools you have, then answer with the result: your final message is returned to the agent that invoked the skill.`;
}

export async function runForkedSkill(
  skill: SkillDefinition,
  prompt: string,
  options: ForkOptions,
  signal: AbortSignal,
): Promise<ToolResult | SkillRefusal> {
  const f = skill.frontmatter;
  const agent = f.agent === null ? null : options.agents?.[f.agent];
  if (f.agent !== null && !agent) {
    const known = Object.keys(options.agents ?? {}).join(', ') || 'none';
    return refusal('unknown_agent', `skill "${skill.name}" names agent "${f.agent}", not in this session (${known})`);
  }
  const allows = toolFilter(f.allowed_tools);
  const names = new Set(options.tools.filter((t) => t.name !== 'skill' && allows(t.name)).map((t) => t.name));
  const blocked = await subagentStart(options.hooks, skill);
  if (blocked) return { content: blocked, is_error: true };
  const result = await runAgentLoop({
    provider: options.provider,
    model: f.model ?? agent?.model ?? options.model,
    system: agent?.system ?? forkSystemPrompt(skill.name),
    messages: [{ role: 'user', content: prompt }],
    tools: options.tools.filter((t) => names.has(t.name)),
    executor: {
      execute: async (call, o) =>
        names.has(call.name)
          ? await options.executor.execute(call, o)
          : Promise.resolve({ content: `tool ${call.name} is not available to skill "${skill.name}"`, is_error: true }),
    },
    budgets: { max_turns: options.max_turns ?? DEFAULT_FORK_MAX_TURNS },
    signal,
    ...(options.onEvent ? { onEvent: options.onEvent } : {}),
  }).catch(async (error: Error) => {
    await subagentStop(options.hooks, skill, 'error', error.message);
    throw error;
  });
  await subagentStop(options.hooks, skill, result.outcome, result.outcome === 'end_turn' ? null : result.reason);
  const text = finalText(result.messages);
  if (result.outcome === 'end_turn') return { content: text || '(the sub-agent gave no answer)' };
  return {
    content: `sub-agent for skill "${skill.name}" ended ${result.outcome}: ${result.reason}${text ? `\n${text}` : ''}`,
    is_error: true,
  };
}

function finalText(messages: readonly ChatMessage[]): string {
  const last = [...messages].reverse().find((m) => m.role === 'assistant');
  if (!last) return '';
  if (typeof last.content === 'string') return last.content;
  return last.content
    .flatMap((b) => (b.type === 'text' ? [b.text] : []))
    .join('\n')
    .trim();
}

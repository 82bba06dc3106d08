/**
 * @module runtime/_tool-set
 * An agent's whole tool set in a session: its own tools (built-ins and colony's core
 * tools, always there), the project's MCP servers' tools (`mcp__<server>__<tool>`, one
 * set shared by every agent) and the `skill` tool. An inline skill's `allowed-tools`
 * restrict the agent through its skill scope until its session ends; a fork skill's
 * sub-agent runs on the agent's provider with the scoped tools, so every restriction
 * in force also holds inside the fork. Permission and hook wrappers go in `wrap`, so
 * they apply to every tool, MCP tools and fork sub-agents' calls included; the agent's
 * hooks also hear SubagentStart / SubagentStop around each fork.
 */
import {
  type AgentTools,
  combineTools,
  type ForkAgent,
  type ForkOptions,
  type LifecycleHooks,
  type McpManager,
  type ResolvedProjectConfig,
  type SkillScope,
  skillTool,
  type ToolExecutor,
  withSkillScope,
} from '@swarm/runtime';

export interface ToolSetOptions {
  /** The agent's own tools (agentTools). */
  readonly own: AgentTools;
  readonly mcp?: McpManager | undefined;
  /** The project root: where `.claude/skills` and `.skills` are looked up. */
  readonly project_root: string;
  readonly scope: SkillScope;
  readonly provider: ForkOptions['provider'];
  readonly model: string;
  readonly config: ResolvedProjectConfig;
  /**
   * Wraps the routed executor (permissions, lifecycle hooks) inside the skill scope, so
   * an agent's calls and its fork sub-agents' calls all pass through it.
   */
  readonly wrap?: (executor: ToolExecutor) => ToolExecutor;
  /** The agent's lifecycle hooks: SubagentStart / SubagentStop around each fork. */
  readonly hooks?: LifecycleHooks | null;
}

export function agentToolSet(o: ToolSetOptions): AgentTools {
  const agents: Record<string, ForkAgent> = {};
  for (const a of o.config.agents) agents[a.name] = { system: a.prompt, model: a.model_id };
  const skill = skillTool({
    roots: { project_root: o.project_root },
    scope: o.scope,
    fork: () => ({
      provider: o.provider,
      model: o.model,
      tools: tools.schemas,
      executor: tools.executor,
      agents,
      hooks: o.hooks ?? null,
    }),
  });
  const combined = combineTools(o.own, ...(o.mcp ? [o.mcp] : []), skill);
  const guarded = o.wrap ? o.wrap(combined.executor) : combined.executor;
  const tools: AgentTools = { schemas: combined.schemas, executor: withSkillScope(guarded, o.scope) };
  return tools;
}

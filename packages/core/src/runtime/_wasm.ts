/**
 * @module runtime/_wasm
 * The project's `wasm_tools` for each agent of a session: described once per agent at
 * start (their reads are confined to that agent's worktree), offered beside the
 * built-in tools, run on worker threads. `invoke_tool` reaches colony's tools by their
 * contract names through the session's ToolCaller (never bash or the file tools).
 */
import { type AgentTools, type ResolvedProjectConfig, type ToolCaller, wasmTools } from '@swarm/runtime';

export async function agentWasmTools(
  config: ResolvedProjectConfig,
  worktrees: Readonly<Record<string, string>>,
  caller: ToolCaller,
): Promise<Record<string, AgentTools>> {
  const tools = config.raw.wasm_tools ?? [];
  const out: Record<string, AgentTools> = {};
  if (tools.length === 0) return out;
  for (const [agent, worktree] of Object.entries(worktrees)) {
    out[agent] = await wasmTools({
      tools,
      base: config.project_root,
      worktree,
      invoke: async (name, input) => caller.callTool(name, input),
    });
  }
  return out;
}

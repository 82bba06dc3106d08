/**
 * @module loop/tool-caller
 * How the loop runs tools, and the one door to colony. `ToolExecutor` is what the loop
 * calls per tool_use block; `ToolCaller` is colony's tool interface (`callTool(name,
 * args)`: the same calls an IDE agent makes; `ToolRegistry.call` fits it), so the
 * runtime never imports storage or coordination. `routeTools` sends each tool name to
 * its executor (built-in agent tools, colony, MCP servers later).
 */

export interface ToolCall {
  readonly id: string;
  readonly name: string;
  readonly input: Record<string, unknown>;
}

/** Maps 1:1 onto an Anthropic `tool_result` block; `is_error` tells the model to retry or adapt. */
export interface ToolResult {
  readonly content: string;
  readonly is_error?: boolean;
}

export interface ToolExecutor {
  /** May throw: the loop turns a throw into an `is_error` result. */
  execute(call: ToolCall, options: { readonly signal: AbortSignal }): Promise<ToolResult>;
}

/** colony's tool interface: an outcome with `ok` and the text an agent reads. */
export interface ToolCaller {
  callTool(
    name: string,
    args: Record<string, unknown>,
  ): Promise<{ readonly ok: boolean; readonly text: string; readonly value?: unknown }>;
}

export function toolCallerExecutor(caller: ToolCaller): ToolExecutor {
  return {
    async execute(call) {
      const outcome = await caller.callTool(call.name, call.input);
      return { content: outcome.text, is_error: !outcome.ok };
    },
  };
}

/** Routes by tool name; an unknown name is an `is_error` result naming the known tools. */
export function routeTools(routes: Readonly<Record<string, ToolExecutor>>): ToolExecutor {
  return {
    async execute(call, options) {
      const executor = routes[call.name];
      if (!executor) {
        const known = Object.keys(routes).sort().join(', ');
        return { content: `unknown tool ${call.name}; available: ${known}`, is_error: true };
      }
      return executor.execute(call, options);
    },
  };
}

/**
 * @module loop/guard-tools
 * Wraps any ToolExecutor (built-in agent tools, colony tools, MCP tools `mcp__s__t`,
 * skills: whatever sits below) so every call is governed, in this order:
 *   1. permissions (evaluate.ts): deny returns the reason as an `is_error` result and the
 *      tool never runs;
 *   2. PreToolUse hooks: a deny/block (or exit 2) does the same with the hooks' reasons;
 *      an explicit `{"decision":"allow"}` approves a call the permissions would ask about;
 *   3. an `ask` still standing goes to the asker (a needs_reply message, then deny on
 *      timeout); without an asker it is denied at once;
 *   4. the tool runs; then PostToolUse (success) or PostToolUseFailure (an `is_error`
 *      result or a throw) fire; a post hook's blocking reason is appended for the model;
 *      a successful `task_plan_complete_subtask` also fires TaskCompleted.
 * With no permission policy (no `permissions` block anywhere) step 1 allows every call,
 * as before permissions existed.
 */

import type { LifecycleHooks } from '../lifecycle-hooks/dispatch.js';
import type { Asker } from '../permissions/ask.js';
import { evaluatePermission, type PermissionPolicy } from '../permissions/evaluate.js';
import { primaryInput } from '../permissions/primary-input.js';
import type { ToolCall, ToolExecutor, ToolResult } from './tool-caller.js';

export interface GuardOptions {
  readonly agent: string;
  /** null: every call is allowed (hooks still run). */
  readonly permissions?: PermissionPolicy | null;
  readonly asker?: Asker;
  readonly hooks?: LifecycleHooks | null;
  readonly log?: (line: string) => void;
}

const TASK_COMPLETED_TOOL = 'task_plan_complete_subtask';

export function guardTools(executor: ToolExecutor, options: GuardOptions): ToolExecutor {
  return {
    async execute(call, { signal }) {
      const refusal = await admit(call, options, signal);
      if (refusal) {
        options.log?.(`${call.name} refused: ${refusal}`);
        return { content: refusal, is_error: true };
      }
      let result: ToolResult;
      try {
        result = await executor.execute(call, { signal });
      } catch (error) {
        await options.hooks?.fire('PostToolUseFailure', {
          tool_name: call.name,
          tool_input: call.input,
          error: (error as Error).message,
        });
        throw error;
      }
      return after(call, result, options);
    },
  };
}

/** null when the call may run, else the text the model gets. */
async function admit(call: ToolCall, options: GuardOptions, signal: AbortSignal): Promise<string | null> {
  const verdict = options.permissions ? evaluatePermission(options.permissions, call.name, call.input) : null;
  if (verdict?.decision === 'deny') return `permission denied: ${verdict.reason}`;
  const pre = await options.hooks?.fire('PreToolUse', { tool_name: call.name, tool_input: call.input });
  if (pre?.blocked) return `blocked by PreToolUse hook: ${pre.reasons.join('; ')}`;
  if (verdict?.decision !== 'ask' || pre?.approved) return null;
  if (!options.asker) return `permission denied: ${verdict.reason} (asking is not possible here)`;
  const primary = primaryInput(call.input);
  const answer = await options.asker({
    agent: options.agent,
    tool: call.name,
    call: `${call.name}(${primary?.value ?? ''})`,
    reason: verdict.reason,
    signal,
  });
  return answer.approved ? null : `permission denied: ${verdict.reason}; ${answer.reason}`;
}

async function after(call: ToolCall, result: ToolResult, options: GuardOptions): Promise<ToolResult> {
  const hooks = options.hooks;
  if (!hooks) return result;
  const base = { tool_name: call.name, tool_input: call.input };
  const post = result.is_error
    ? await hooks.fire('PostToolUseFailure', { ...base, error: result.content })
    : await hooks.fire('PostToolUse', { ...base, tool_response: { content: result.content } });
  if (!result.is_error && call.name === TASK_COMPLETED_TOOL) await hooks.fire('TaskCompleted', { task: call.input });
  if (!post.blocked) return result;
  return { ...result, content: `${result.content}\n\n${post.event} hook: ${post.reasons.join('; ')}` };
}

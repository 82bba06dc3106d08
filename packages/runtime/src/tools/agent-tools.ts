/**
 * @module tools/agent-tools
 * The tools a runtime agent sees, named and shaped as agents already know them: bash,
 * read, write, edit, glob, grep, ask_user, plus colony's coordination tools under their
 * contract names. Every file tool is confined to the agent's worktree; bash runs `sh -c`
 * there in its own process group with a timeout and an output cap, with the SWARM_*
 * environment. colony tools go through the ToolCaller with `session_id` and `agent`
 * filled in by the runtime (the schemas the model sees leave them out). write and edit
 * take a colony file claim through `claim` when one is given. With `sandbox`, bash runs
 * inside the OS sandbox (bubblewrap, sandbox-exec): the worktree writable, the rest
 * read-only; in a session, permissions and lifecycle hooks wrap them (loop/guard-tools.ts).
 */
import type { ToolSchema } from '@swarm/providers';
import { runCommand, type SandboxPolicy } from '@swarm/worktree';
import { z } from 'zod';
import type { ToolCall, ToolCaller, ToolExecutor, ToolResult } from '../loop/tool-caller.js';
import { type Mailbox, OPERATOR } from '../mailbox/mailbox.js';
import { ConfinementError } from './_confine.js';
import { editTool, readTool, ToolInputError, writeTool } from './files.js';
import { globTool, grepTool } from './search.js';

const BashInput = z.strictObject({
  command: z.string().min(1).describe('Shell command, run with sh -c in your worktree'),
  timeout_secs: z.number().int().min(1).max(3600).optional().describe('Default 120'),
});
const ReadInput = z.strictObject({
  path: z.string().min(1),
  offset: z.number().int().min(1).optional().describe('First line, 1-based'),
  limit: z.number().int().min(1).optional(),
});
const WriteInput = z.strictObject({ path: z.string().min(1), content: z.string() });
const EditInput = z.strictObject({
  path: z.string().min(1),
  old_string: z.string(),
  new_string: z.string(),
  replace_all: z.boolean().optional(),
});
const GlobInput = z.strictObject({ pattern: z.string().min(1) });
const GrepInput = z.strictObject({
  pattern: z.string().min(1).describe('Regular expression'),
  path: z.string().optional(),
  glob: z.string().optional(),
});
const AskUserInput = z.strictObject({ question: z.string().min(1) });

const BUILTINS = {
  bash: [BashInput, 'Run a shell command in your worktree (own process group, timeout, output capped).'],
  read: [ReadInput, 'Read a file of your worktree as numbered lines.'],
  write: [WriteInput, 'Create or overwrite a file in your worktree.'],
  edit: [EditInput, 'Replace an exact string in a file (unique unless replace_all).'],
  glob: [GlobInput, 'List files of your worktree matching a glob pattern.'],
  grep: [GrepInput, 'Search file contents with a regular expression.'],
  ask_user: [AskUserInput, 'Ask the operator a question; the answer arrives as a message in a later prompt.'],
} as const;
export type BuiltinToolName = keyof typeof BUILTINS;
export const BUILTIN_TOOL_NAMES = Object.keys(BUILTINS) as BuiltinToolName[];

/** Arguments the runtime supplies on every colony call. */
const INJECTED = ['session_id', 'agent'] as const;

export interface AgentToolsOptions {
  readonly worktree: string;
  readonly agent: string;
  /** The agent's colony session id (`swarm-<session>-<agent>`). */
  readonly colony_session_id: string;
  /** SWARM_* (and COLONY_SESSION_ID) for bash. */
  readonly env: Readonly<Record<string, string>>;
  readonly mailbox: Mailbox;
  readonly colony?: ToolCaller;
  /** colony tool schemas to offer (contract names); session_id and agent are stripped. */
  readonly colony_tools?: readonly ToolSchema[];
  /** Takes a colony claim on a file written or edited (worktree-relative path). */
  readonly claim?: (path: string) => Promise<void>;
  readonly bash_timeout_ms?: number;
  readonly max_output_bytes?: number;
  /** bash inside the OS sandbox, the worktree writable (the project's `sandbox`); default none. */
  readonly sandbox?: SandboxPolicy;
  /** More tools (WASM tools), routed by name after the built-ins. */
  readonly extra?: AgentTools;
}

export interface AgentTools {
  readonly schemas: readonly ToolSchema[];
  readonly executor: ToolExecutor;
}

export function agentTools(options: AgentToolsOptions): AgentTools {
  const builtins: ToolSchema[] = BUILTIN_TOOL_NAMES.map((name) => {
    const [schema, description] = BUILTINS[name];
    return { name, description, input_schema: z.toJSONSchema(schema) as Record<string, unknown> };
  });
  /** Per colony tool, which of session_id/agent its schema takes (the runtime fills them). */
  const colonyNames = new Map<string, readonly string[]>();
  const colonySchemas = (options.colony_tools ?? [])
    .filter((t) => !(t.name in BUILTINS))
    .map((t) => {
      const props = (t.input_schema.properties as Record<string, unknown> | undefined) ?? {};
      colonyNames.set(
        t.name,
        INJECTED.filter((k) => k in props),
      );
      return stripInjected(t);
    });
  const extraNames = new Set((options.extra?.schemas ?? []).map((t) => t.name));
  return {
    schemas: [...builtins, ...(options.extra?.schemas ?? []), ...colonySchemas],
    executor: {
      async execute(call, { signal }) {
        if (call.name in BUILTINS) return runBuiltin(options, call, signal);
        if (options.extra && extraNames.has(call.name)) return options.extra.executor.execute(call, { signal });
        const injected = colonyNames.get(call.name);
        if (injected && options.colony) {
          const supplied: Record<string, string> = { session_id: options.colony_session_id, agent: options.agent };
          const args = { ...call.input };
          for (const key of injected) args[key] = supplied[key]!;
          const outcome = await options.colony.callTool(call.name, args);
          return { content: outcome.text, is_error: !outcome.ok };
        }
        const known = [...BUILTIN_TOOL_NAMES, ...extraNames, ...colonyNames.keys()].sort().join(', ');
        return { content: `unknown tool ${call.name}; available: ${known}`, is_error: true };
      },
    },
  };
}

function stripInjected(tool: ToolSchema): ToolSchema {
  const schema = { ...tool.input_schema };
  const properties = { ...((schema.properties as Record<string, unknown> | undefined) ?? {}) };
  for (const key of INJECTED) delete properties[key];
  schema.properties = properties;
  if (Array.isArray(schema.required)) {
    schema.required = (schema.required as string[]).filter((k) => !(INJECTED as readonly string[]).includes(k));
  }
  return { ...tool, input_schema: schema };
}

async function runBuiltin(options: AgentToolsOptions, call: ToolCall, signal: AbortSignal): Promise<ToolResult> {
  const name = call.name as BuiltinToolName;
  const parsed = BUILTINS[name][0].safeParse(call.input);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.') || '(input)'}: ${i.message}`).join('; ');
    return { content: `invalid input for ${name}: ${issues}`, is_error: true };
  }
  const input = parsed.data as Record<string, unknown>;
  const wt = options.worktree;
  try {
    switch (name) {
      case 'bash':
        return await bash(options, input as z.output<typeof BashInput>, signal);
      case 'read':
        return { content: readTool(wt, input as z.output<typeof ReadInput>) };
      case 'write': {
        const done = writeTool(wt, input as z.output<typeof WriteInput>);
        return { content: await withClaim(options, done) };
      }
      case 'edit': {
        const done = editTool(wt, input as z.output<typeof EditInput>);
        return { content: await withClaim(options, done) };
      }
      case 'glob':
        return { content: globTool(wt, input as z.output<typeof GlobInput>) };
      case 'grep':
        return { content: grepTool(wt, input as z.output<typeof GrepInput>) };
      case 'ask_user':
        await options.mailbox.send({
          from: options.agent,
          to: OPERATOR,
          body: (input as z.output<typeof AskUserInput>).question,
          needs_reply: true,
        });
        return { content: 'question sent to the operator; the answer arrives as a message in a later prompt' };
    }
  } catch (error) {
    if (error instanceof ConfinementError || error instanceof ToolInputError) {
      return { content: error.message, is_error: true };
    }
    throw error;
  }
}

async function withClaim(options: AgentToolsOptions, done: { relative: string; text: string }): Promise<string> {
  if (!options.claim) return done.text;
  try {
    await options.claim(done.relative);
    return `${done.text} (claimed)`;
  } catch (error) {
    return `${done.text} (claim not taken: ${(error as Error).message})`;
  }
}

async function bash(
  options: AgentToolsOptions,
  input: z.output<typeof BashInput>,
  signal: AbortSignal,
): Promise<ToolResult> {
  if (signal.aborted) return { content: 'not run: aborted', is_error: true };
  const timeoutMs = input.timeout_secs ? input.timeout_secs * 1000 : (options.bash_timeout_ms ?? 120_000);
  const result = await runCommand(options.worktree, input.command, {
    timeoutMs,
    env: options.env,
    maxOutputBytes: options.max_output_bytes ?? 64 * 1024,
    ...(options.sandbox ? { sandbox: { policy: options.sandbox, root: options.worktree } } : {}),
  });
  const parts = [`exit code ${result.exit_code}${result.timed_out ? ` (timed out after ${timeoutMs} ms)` : ''}`];
  if (result.stdout) parts.push(`stdout:\n${result.stdout}`);
  if (result.stderr) parts.push(`stderr:\n${result.stderr}`);
  if (result.truncated) parts.push('(output truncated)');
  return { content: parts.join('\n'), is_error: result.exit_code !== 0 };
}

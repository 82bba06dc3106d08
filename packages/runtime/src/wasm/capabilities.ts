/**
 * @module wasm/capabilities
 * The host functions a guest may call, each behind its seed 003 capability (names are
 * case-sensitive): log (Logging), read_workspace_file (WorkspaceRead), http_request
 * (HttpRequest), invoke_tool (ToolInvoke), secret_exists (SecretCheck). A call the tool
 * was not granted is `CapabilityDenied`; a counter past its limit is
 * `RateLimitExceeded`. One `HostState` per invocation (fresh counters, as the seed's
 * fresh Store). Every import is always linked, so a module instantiates whatever it
 * imports; the check happens when it calls.
 */
import type { WasmCapability, WasmToolConfig } from '../settings/schema.js';
import { WasmToolError } from './errors.js';
import { httpRequest } from './http.js';
import type { WasmLimits } from './limits.js';
import { type ReadState, readWorkspaceFile } from './workspace-read.js';

export const HOST_FUNCTIONS = {
  log: 'Logging',
  read_workspace_file: 'WorkspaceRead',
  http_request: 'HttpRequest',
  invoke_tool: 'ToolInvoke',
  secret_exists: 'SecretCheck',
} as const satisfies Record<string, WasmCapability>;
export type HostFunction = keyof typeof HOST_FUNCTIONS;

export const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error'] as const;

export interface LogEntry {
  readonly level: (typeof LOG_LEVELS)[number];
  readonly message: string;
}

export interface HostOptions {
  readonly tool: WasmToolConfig;
  readonly limits: WasmLimits;
  readonly worktree: string;
  /** Where secrets come from; default process.env. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Runs another tool for invoke_tool (after `tool_aliases`). */
  readonly invoke?: (name: string, input: Record<string, unknown>) => Promise<{ ok: boolean; text: string }>;
}

export interface HostState {
  readonly logs: LogEntry[];
  call(name: string, args: readonly unknown[], signal: AbortSignal): Promise<unknown>;
}

export function hostState(options: HostOptions): HostState {
  const { tool, limits } = options;
  const granted = new Set(tool.capabilities ?? []);
  const env = options.env ?? process.env;
  const secrets = new Map<string, string>();
  for (const name of tool.secrets ?? []) if (env[name] !== undefined) secrets.set(name, env[name] as string);
  const logs: LogEntry[] = [];
  const read: ReadState = { bytes_read: 0 };
  const counts = { http: 0, invoke: 0 };
  const count = (key: 'http' | 'invoke', limit: number, what: string) => {
    if (++counts[key] > limit)
      throw new WasmToolError('RateLimitExceeded', `more than ${limit} ${what} in one invocation`);
  };
  return {
    logs,
    async call(name, args, signal) {
      if (!(name in HOST_FUNCTIONS)) throw new WasmToolError('HostFunctionError', `no host function ${name}`);
      const capability = HOST_FUNCTIONS[name as HostFunction];
      if (!granted.has(capability)) {
        throw new WasmToolError(
          'CapabilityDenied',
          `${name} needs capability ${capability}, not granted to ${tool.name}`,
        );
      }
      const [a, b] = args as [unknown, unknown];
      switch (name as HostFunction) {
        case 'log':
          if (logs.length >= limits.max_log_entries) {
            throw new WasmToolError('RateLimitExceeded', `more than ${limits.max_log_entries} log entries`);
          }
          logs.push({ level: LOG_LEVELS[Number(a)] ?? 'info', message: String(b) });
          return null;
        case 'read_workspace_file':
          return readWorkspaceFile(
            options.worktree,
            tool.workspace_prefixes ?? [],
            limits.max_file_read_bytes,
            read,
            String(a),
          );
        case 'http_request':
          count('http', limits.max_http_requests, 'HTTP requests');
          return httpRequest(String(a), { allowlist: tool.endpoint_allowlist ?? [], secrets, signal });
        case 'invoke_tool':
          count('invoke', limits.max_tool_invocations, 'tool invocations');
          return invokeTool(options, String(a), String(b));
        case 'secret_exists':
          return (tool.secrets ?? []).includes(String(a)) && env[String(a)] !== undefined;
      }
    },
  };
}

async function invokeTool(options: HostOptions, name: string, params: string): Promise<string> {
  const target = options.tool.tool_aliases?.[name] ?? name;
  if (!options.invoke) throw new WasmToolError('HostFunctionError', 'no tools to invoke here');
  let input: unknown;
  try {
    input = JSON.parse(params);
  } catch {
    throw new WasmToolError('HostFunctionError', `invoke_tool ${target}: params are not JSON`);
  }
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw new WasmToolError('HostFunctionError', `invoke_tool ${target}: params must be a JSON object`);
  }
  const out = await options.invoke(target, input as Record<string, unknown>);
  return JSON.stringify({ ok: out.ok, output: out.text });
}

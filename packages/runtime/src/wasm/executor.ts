/**
 * @module wasm/executor
 * The project's `wasm_tools` as agent tools: each one's schema (from its `description`
 * and `schema` exports, read once at start on a worker like any call; a fallback when
 * it has none) and one ToolExecutor routing by name, so the generic permission and hook
 * wrapper applies to them as to bash. A failure is an `is_error` result whose text
 * starts with the seed's error kind; log entries follow the output.
 */
import { isAbsolute, resolve } from 'node:path';
import type { ToolSchema } from '@swarm/providers';
import type { ToolExecutor } from '../loop/tool-caller.js';
import type { WasmToolConfig } from '../settings/schema.js';
import type { HostOptions } from './capabilities.js';
import { wasmErrorText } from './errors.js';
import { runWasm, type WasmOutcome } from './host.js';
import { resolveWasmLimits } from './limits.js';

export interface WasmToolsOptions {
  readonly tools: readonly WasmToolConfig[];
  /** Relative tool paths resolve here (the project root). */
  readonly base: string;
  readonly worktree: string;
  readonly env?: HostOptions['env'];
  readonly invoke?: HostOptions['invoke'];
}

export interface WasmTools {
  readonly schemas: readonly ToolSchema[];
  readonly executor: ToolExecutor;
}

/** Options of one tool's runs. */
export function wasmRunOptions(tool: WasmToolConfig, o: Omit<WasmToolsOptions, 'tools'>) {
  return {
    tool,
    limits: resolveWasmLimits(tool.limits),
    worktree: o.worktree,
    module_path: isAbsolute(tool.path) ? tool.path : resolve(o.base, tool.path),
    ...(o.env ? { env: o.env } : {}),
    ...(o.invoke ? { invoke: o.invoke } : {}),
  };
}

/** The text an agent reads for an outcome. */
export function outcomeText(outcome: WasmOutcome): string {
  const logs = outcome.logs.map((l) => `[${l.level}] ${l.message}`);
  const head = outcome.ok ? outcome.output : outcome.kind ? wasmErrorText(outcome.kind, outcome.error) : outcome.error;
  return logs.length > 0 ? `${head}\nlogs:\n${logs.join('\n')}` : head;
}

export async function wasmTools(options: WasmToolsOptions): Promise<WasmTools> {
  const byName = new Map(options.tools.map((t) => [t.name, t] as const));
  const schemas = await Promise.all(options.tools.map((tool) => describe(tool, options)));
  return {
    schemas,
    executor: {
      async execute(call, { signal }) {
        const tool = byName.get(call.name);
        if (!tool) return { content: `unknown wasm tool ${call.name}`, is_error: true };
        const outcome = await runWasm('execute', JSON.stringify(call.input), {
          ...wasmRunOptions(tool, options),
          signal,
        });
        return { content: outcomeText(outcome), is_error: !outcome.ok };
      },
    },
  };
}

async function describe(tool: WasmToolConfig, options: WasmToolsOptions): Promise<ToolSchema> {
  const fallback: ToolSchema = {
    name: tool.name,
    description: `WASM tool ${tool.name} (sandboxed)`,
    input_schema: { type: 'object' },
  };
  const outcome = await runWasm('describe', '', wasmRunOptions(tool, options));
  if (!outcome.ok) return fallback;
  try {
    const found = JSON.parse(outcome.output) as { description?: string; schema?: string };
    const schema = found.schema ? (JSON.parse(found.schema) as Record<string, unknown>) : fallback.input_schema;
    return { name: tool.name, description: found.description || fallback.description, input_schema: schema };
  } catch {
    return fallback;
  }
}

/**
 * @module registry
 * The tool registry: finds a tool, validates its arguments, runs it against a backend,
 * and turns every outcome into one of two shapes: a value, or `{ code, error, tool,
 * timestamp }`. Nothing thrown by a handler escapes a call; unexpected throws become
 * INTERNAL_ERROR and are reported to `onInternalError`. Every call leaves a receipt.
 */
import { createHash } from 'node:crypto';
import type { z } from 'zod';
import { inToolset, type Tool, type Toolset } from './define-tool';
import {
  ColonyError,
  type ErrorCode,
  errorCodeOf,
  isColonyError,
  type ToolErrorPayload,
  toErrorPayload,
} from './errors';

/** What a call leaves behind for `mcp_metrics`; token counts are the sink's job. */
export interface CallReceipt {
  readonly ts: number;
  readonly operation: string;
  readonly sessionId: string | null;
  readonly durationMs: number;
  readonly inputText: string;
  readonly outputText: string;
  readonly ok: boolean;
  readonly errorCode: ErrorCode | null;
  readonly errorMessage: string | null;
}

export interface RegistryHooks {
  /** Epoch milliseconds from the injected clock. */
  now(): number;
  /**
   * Runs a mutating call at most once per (tool, key). Must read the stored result and
   * run `fn` in one write transaction, so a racing retry waits and then sees the result.
   */
  idempotent?<T>(tool: string, key: string, argsHash: string, fn: () => T): T;
  recordReceipt?(receipt: CallReceipt): void;
  /** Runs before each call's handler (given the tool's name): e.g. settle deferred receipts the call may read. */
  beforeCall?(tool: string): void;
  onInternalError?(error: unknown, tool: string): void;
}

export type ToolCallOutcome =
  | { readonly ok: true; readonly value: unknown; readonly text: string }
  | { readonly ok: false; readonly error: ToolErrorPayload; readonly text: string };

export class ToolRegistry<B> {
  readonly #tools: ReadonlyMap<string, Tool<B>>;
  readonly #backend: B;
  readonly #hooks: RegistryHooks;

  constructor(tools: readonly Tool<B>[], backend: B, hooks: RegistryHooks) {
    const map = new Map<string, Tool<B>>();
    for (const tool of tools) {
      if (map.has(tool.name)) throw new Error(`tool defined twice: ${tool.name}`);
      map.set(tool.name, tool);
    }
    this.#tools = map;
    this.#backend = backend;
    this.#hooks = hooks;
  }

  /** The tools of a toolset, in definition order. */
  list(toolset: Toolset = 'all'): Tool<B>[] {
    return [...this.#tools.values()].filter((t) => inToolset(t, toolset));
  }

  get(name: string): Tool<B> | undefined {
    return this.#tools.get(name);
  }

  /**
   * Calls a tool by name with untrusted arguments. Never throws: every failure is an
   * outcome with a stable code. Without a toolset, every registered tool is reachable.
   */
  async call(name: string, args: unknown, options: { toolset?: Toolset } = {}): Promise<ToolCallOutcome> {
    const started = performance.now();
    const inputText = safeStringify(args) ?? '';
    let outcome: ToolCallOutcome;
    const tool = this.#tools.get(name);
    try {
      this.#hooks.beforeCall?.(name);
      if (!tool || (options.toolset !== undefined && !inToolset(tool, options.toolset))) {
        throw new ColonyError('UNKNOWN_TOOL', `unknown tool "${name}"`, {
          details: { available: this.list(options.toolset).map((t) => t.name) },
        });
      }
      const parsed = parseArgs(tool.input, args);
      const value = await this.#run(tool, parsed);
      const text = safeStringify(value) ?? 'null';
      outcome = { ok: true, value: value === undefined ? null : value, text };
    } catch (thrown) {
      const error = isColonyError(thrown) ? thrown : this.#internal(thrown, name);
      const format = tool && error.code !== 'UNKNOWN_TOOL' ? tool.errorFormat : 'colony';
      const payload = toErrorPayload(error, name, this.#hooks.now(), format);
      outcome = { ok: false, error: payload, text: JSON.stringify(payload) };
    }
    this.#receipt(name, args, inputText, outcome, performance.now() - started);
    return outcome;
  }

  async #run(tool: Tool<B>, args: Record<string, unknown>): Promise<unknown> {
    const key = args.idempotency_key;
    if (!tool.mutates || typeof key !== 'string' || !this.#hooks.idempotent) {
      return tool.handler(args, this.#backend);
    }
    const { idempotency_key: _ignored, ...rest } = args;
    return this.#hooks.idempotent(tool.name, key, hashArgs(rest), () => {
      const result = tool.handler(args, this.#backend);
      if (result instanceof Promise) throw new Error(`${tool.name}: idempotent handlers must be synchronous`);
      return result;
    });
  }

  #internal(thrown: unknown, tool: string): ColonyError {
    this.#hooks.onInternalError?.(thrown, tool);
    const message = thrown instanceof Error ? thrown.message : String(thrown);
    return new ColonyError('INTERNAL_ERROR', `internal error: ${message}`, { cause: thrown });
  }

  #receipt(name: string, args: unknown, inputText: string, outcome: ToolCallOutcome, durationMs: number): void {
    if (!this.#hooks.recordReceipt) return;
    try {
      this.#hooks.recordReceipt({
        ts: this.#hooks.now(),
        operation: name,
        sessionId: callerSession(args),
        durationMs,
        inputText,
        outputText: outcome.text,
        ok: outcome.ok,
        errorCode: outcome.ok ? null : errorCodeOf(outcome.error),
        errorMessage: outcome.ok ? null : outcome.error.error,
      });
    } catch (error) {
      // A receipt is bookkeeping: losing one must never fail the call it describes.
      this.#hooks.onInternalError?.(error, name);
    }
  }
}

/** Validates untrusted arguments; the error names every offending field. */
export function parseArgs(schema: z.ZodObject, args: unknown): Record<string, unknown> {
  // Absent arguments mean none; an explicit null is a non-object like any other.
  const result = schema.safeParse(args === undefined ? {} : args);
  if (result.success) return result.data as Record<string, unknown>;
  const problems = result.error.issues.map((issue) => {
    const path = issue.path.join('.');
    if (issue.code === 'unrecognized_keys') return `unknown argument(s): ${issue.keys.join(', ')}`;
    return path ? `${path}: ${issue.message}` : issue.message;
  });
  const fields = [
    ...new Set(
      result.error.issues.flatMap((i) =>
        i.code === 'unrecognized_keys' ? i.keys : i.path.length ? [String(i.path[0])] : [],
      ),
    ),
  ];
  throw new ColonyError('INVALID_PARAMETERS', `invalid arguments: ${problems.join('; ')}`, {
    details: { fields },
  });
}

function callerSession(args: unknown): string | null {
  if (args === null || typeof args !== 'object') return null;
  const record = args as Record<string, unknown>;
  const id = record.session_id ?? record.current_session_id;
  return typeof id === 'string' ? id.slice(0, 200) : null;
}

/** A stable hash of arguments: key order does not matter. */
export function hashArgs(args: unknown): string {
  return createHash('sha256').update(stableStringify(args)).digest('hex');
}

function stableStringify(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(stableStringify).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableStringify(v)}`).join(',')}}`;
}

function safeStringify(value: unknown): string | undefined {
  try {
    return JSON.stringify(value);
  } catch {
    return undefined;
  }
}

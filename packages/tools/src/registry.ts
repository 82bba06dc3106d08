/**
 * @module registry
 * The tool registry: finds a tool, validates its arguments, runs it against a backend,
 * and turns every outcome into one of two shapes: a value, or `{ code, error, tool,
 * timestamp }`. Nothing thrown by a handler escapes a call; unexpected throws become
 * INTERNAL_ERROR and are reported to `onInternalError`, except a store constraint
 * failure (SQLITE_CONSTRAINT_*), which is the caller's input: INVALID_PARAMETERS. Every
 * call leaves a receipt. What a refusal echoes of the caller's input (the tool name,
 * argument names, the message) and what a receipt keeps are bounded (RECEIPT_BOUNDS),
 * so a refused call with megabytes of name or arguments neither grows the store nor
 * answers with them.
 * Top-level arguments a tool does not declare are ignored, not refused (agents trained on
 * other servers send them): an object answer names them in `ignored_arguments`.
 */
import { createRequire } from 'node:module';
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

/** What a receipt and a refusal keep of caller-controlled text, in characters. */
export const RECEIPT_BOUNDS = {
  /** A tool name as echoed and recorded (registered names have at most 64). */
  name: 64,
  /** A session id as recorded. */
  sessionId: 200,
  /** An error message as answered and recorded. */
  errorMessage: 1_000,
  /** Each argument name a refusal lists in `fields`. */
  field: 64,
  /** How many argument names a refusal lists in `fields`. */
  fields: 32,
} as const;

export interface RegistryCallbacks {
  /** Epoch milliseconds from the injected clock. */
  now(): number;
  /**
   * Runs a mutating call at most once per (tool, key). Must read the stored result and
   * run `fn` in one write transaction, so a racing retry waits and then sees the result.
   */
  idempotent?<T>(tool: string, key: string, argsHash: string, fn: () => T | Promise<T>): Promise<T>;
  /**
   * Runs an async mutating call (a tool declared `async`) at most once per (tool, key):
   * reserves the key, runs `fn` outside any transaction, records its answer (an error
   * releases the key); a duplicate in flight awaits or polls for that answer.
   */
  idempotentAsync?<T>(tool: string, key: string, argsHash: string, fn: () => Promise<T>): Promise<T>;
  recordReceipt?(receipt: CallReceipt): void;
  /** Runs before each call's handler (given the tool's name): e.g. settle deferred receipts the call may read. */
  beforeCall?(tool: string): void | Promise<void>;
  onInternalError?(error: unknown, tool: string): void;
}

export type ToolCallOutcome =
  | {
      readonly ok: true;
      readonly value: unknown;
      readonly text: string;
      /** Top-level arguments the tool does not declare, ignored (sorted; absent when none). */
      readonly ignoredArguments?: readonly string[];
    }
  | {
      readonly ok: false;
      /** The colony code, whichever shape `error` has (seed 001's tools say `error_code`). */
      readonly code: ErrorCode;
      readonly error: ToolErrorPayload;
      readonly text: string;
    };

export class ToolRegistry<B> {
  readonly #tools: ReadonlyMap<string, Tool<B>>;
  readonly #backend: B;
  readonly #hooks: RegistryCallbacks;

  constructor(tools: readonly Tool<B>[], backend: B, hooks: RegistryCallbacks) {
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
    const tool = typeof name === 'string' ? this.#tools.get(name) : undefined;
    const shownName = clip(String(name), RECEIPT_BOUNDS.name);
    try {
      const before = await this.#hooks.beforeCall?.(name);
      if (before) await before;
      if (!tool || (options.toolset !== undefined && !inToolset(tool, options.toolset))) {
        throw new ColonyError('UNKNOWN_TOOL', `unknown tool "${shownName}"`, {
          details: { available: this.list(options.toolset).map((t) => t.name) },
        });
      }
      const { args: parsed, ignored } = parseToolArgs(tool.input, args);
      const value = withIgnored(await this.#run(tool, parsed), ignored);
      const text = safeStringify(value) ?? 'null';
      outcome = { ok: true, value: value === undefined ? null : value, text };
      if (ignored.length > 0) outcome = { ...outcome, ignoredArguments: ignored };
    } catch (thrown) {
      const error = bounded(
        isColonyError(thrown) ? thrown : (constraintError(thrown) ?? this.#internal(thrown, shownName)),
      );
      const format = tool && error.code !== 'UNKNOWN_TOOL' ? tool.errorFormat : 'colony';
      const payload = toErrorPayload(error, shownName, this.#hooks.now(), format);
      outcome = { ok: false, code: error.code, error: payload, text: JSON.stringify(payload) };
    }
    this.#receipt(shownName, args, inputText, outcome, performance.now() - started);
    return outcome;
  }

  async #run(tool: Tool<B>, args: Record<string, unknown>): Promise<unknown> {
    const key = args.idempotency_key;
    if (tool.async && tool.mutates && typeof key === 'string' && this.#hooks.idempotentAsync) {
      return this.#hooks.idempotentAsync(tool.name, key, fingerprintOf(tool, args), async () =>
        tool.handler(args, this.#backend),
      );
    }
    if (!tool.mutates || typeof key !== 'string' || tool.async || !this.#hooks.idempotent) {
      return tool.handler(args, this.#backend);
    }
    return this.#hooks.idempotent(tool.name, key, fingerprintOf(tool, args), () => tool.handler(args, this.#backend));
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
  return parseToolArgs(schema, args).args;
}

/**
 * Validates untrusted arguments, ignoring top-level keys the schema does not declare
 * (returned sorted in `ignored`); nested objects keep their own validation. Wrong types
 * and missing fields are INVALID_PARAMETERS naming every offending field.
 */
export function parseToolArgs(
  schema: z.ZodObject,
  args: unknown,
): { args: Record<string, unknown>; ignored: string[] } {
  // Absent arguments mean none; an explicit null is a non-object like any other.
  const input = args === undefined ? {} : args;
  let ignored: string[] = [];
  let result = schema.safeParse(input);
  if (!result.success && isPlainObject(input)) {
    ignored = result.error.issues
      .flatMap((i) => (i.code === 'unrecognized_keys' && i.path.length === 0 ? i.keys : []))
      .sort();
    if (ignored.length > 0) {
      const known = Object.fromEntries(Object.entries(input).filter(([k]) => !ignored.includes(k)));
      result = schema.safeParse(known);
    }
  }
  if (result.success) return { args: result.data as Record<string, unknown>, ignored };
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

/** An object answer names the ignored arguments; other answers (arrays, scalars) stay as they are. */
function withIgnored(value: unknown, ignored: readonly string[]): unknown {
  if (ignored.length === 0 || !isPlainObject(value)) return value;
  return { ...value, ignored_arguments: ignored };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function callerSession(args: unknown): string | null {
  if (args === null || typeof args !== 'object') return null;
  const record = args as Record<string, unknown>;
  const id = record.session_id ?? record.current_session_id;
  return typeof id === 'string' ? clip(id, RECEIPT_BOUNDS.sessionId) : null;
}

/** At most `max` characters of `text`, marked when cut; never half a surrogate pair. */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max - 1;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return `${text.slice(0, end)}…`;
}

/** A refusal whose message and listed fields fit RECEIPT_BOUNDS (the same error when they do). */
function bounded(error: ColonyError): ColonyError {
  const fields = error.details.fields;
  const longFields =
    Array.isArray(fields) &&
    (fields.length > RECEIPT_BOUNDS.fields ||
      fields.some((f) => typeof f === 'string' && f.length > RECEIPT_BOUNDS.field));
  if (error.message.length <= RECEIPT_BOUNDS.errorMessage && !longFields) return error;
  const details = longFields
    ? {
        ...error.details,
        fields: fields
          .slice(0, RECEIPT_BOUNDS.fields)
          .map((f: unknown) => (typeof f === 'string' ? clip(f, RECEIPT_BOUNDS.field) : f)),
      }
    : error.details;
  return new ColonyError(error.code, clip(error.message, RECEIPT_BOUNDS.errorMessage), { details, cause: error });
}

/**
 * A store constraint failure (better-sqlite3's SqliteError, code SQLITE_CONSTRAINT_*):
 * the arguments named something the store refuses (a missing referenced row, a
 * duplicate), so it is the caller's INVALID_PARAMETERS, never INTERNAL_ERROR.
 */
function constraintError(thrown: unknown): ColonyError | undefined {
  const code = (thrown as { code?: unknown } | null)?.code;
  if (!(thrown instanceof Error) || typeof code !== 'string' || !code.startsWith('SQLITE_CONSTRAINT')) return undefined;
  return new ColonyError('INVALID_PARAMETERS', `invalid arguments: the store refused them (${thrown.message})`, {
    details: { constraint: code },
    cause: thrown,
  });
}

/** The hash stored beside an idempotency key: of the tool's fingerprint of the arguments, the key left out. */
function fingerprintOf(tool: Pick<Tool, 'fingerprint'>, args: Record<string, unknown>): string {
  const { idempotency_key: _ignored, ...rest } = args;
  return hashArgs(tool.fingerprint ? tool.fingerprint(rest) : rest);
}

/** A stable hash of arguments: key order does not matter. */
export function hashArgs(args: unknown): string {
  // node:crypto on first use: it starts OpenSSL (~2 MiB of RSS), which most calls never need.
  const { createHash } = createRequire(import.meta.url)('node:crypto') as typeof import('node:crypto');
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

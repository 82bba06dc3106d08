/**
 * @module mcp/fast-call
 * A tools/call answered by the stdio front without the SDK server's per-message work
 * (a zod parse of the message, then of the request twice and of the result, an
 * AbortController, a chain of promise hops). It calls the same function the SDK
 * server's tools/call handler calls (`CallTool` of `_server.ts`) and writes the answer
 * as the SDK would, byte for byte: `{ result, jsonrpc, id }`, or the error answer the
 * SDK makes of a throw. Only requests the SDK would accept without a word are taken
 * (`fastCallOf`); anything else goes to the SDK, which gives its own errors.
 *
 * Cancellation: `notifications/cancelled` for a request in flight here drops its
 * answer, as the SDK does (a tool call does not take a signal, so nothing is aborted
 * beyond the answer). Tools send no progress, so `_meta.progressToken` needs nothing.
 *
 * No runtime imports: the stdio front loads this before the SDK.
 */
import type { JsonRpcId } from './_handshake';

/** The params of a tools/call the fast path serves. */
export interface FastCallParams {
  readonly name: string;
  readonly arguments?: Record<string, unknown>;
}

/** What the SDK server's tools/call handler calls (roots, then the registry). */
export type CallTool = (params: FastCallParams) => Promise<unknown>;

type Json = Record<string, unknown>;

const REQUEST_KEYS = new Set(['jsonrpc', 'id', 'method', 'params']);
const RELATED_TASK_META_KEY = 'io.modelcontextprotocol/related-task';

function isPlainObject(value: unknown): value is Json {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

const isToken = (value: unknown) =>
  typeof value === 'string' || (typeof value === 'number' && Number.isSafeInteger(value));

/**
 * The id and params of a tools/call the SDK's schemas accept as they are and whose
 * answer the SDK would send straight back (no task, no related task); undefined for
 * anything else, including every malformed request (the SDK answers those).
 */
export function fastCallOf(message: unknown): { id: JsonRpcId; params: FastCallParams } | undefined {
  if (!isPlainObject(message) || message.method !== 'tools/call' || message.jsonrpc !== '2.0') return undefined;
  for (const key in message) if (!REQUEST_KEYS.has(key)) return undefined;
  const { id, params } = message;
  if (!isToken(id) || !isPlainObject(params) || typeof params.name !== 'string') return undefined;
  if (params.task !== undefined) return undefined;
  const args = params.arguments;
  // `__proto__` as an own key: the SDK's record parse would not copy it as it is.
  if (args !== undefined && (!isPlainObject(args) || Object.hasOwn(args, '__proto__'))) return undefined;
  const meta = params._meta;
  if (meta !== undefined) {
    if (!isPlainObject(meta) || meta[RELATED_TASK_META_KEY] !== undefined) return undefined;
    if (meta.progressToken !== undefined && !isToken(meta.progressToken)) return undefined;
  }
  return { id: id as JsonRpcId, params: params as unknown as FastCallParams };
}

/** The requestId of a `notifications/cancelled`, or undefined. */
export function cancelledId(message: unknown): unknown {
  if (!isPlainObject(message) || message.method !== 'notifications/cancelled') return undefined;
  return isPlainObject(message.params) ? message.params.requestId : undefined;
}

/** The SDK's answer to a handler that threw (protocol.js `_onrequest`). */
export function errorAnswer(id: JsonRpcId, error: unknown): Json {
  const thrown = error as { code?: unknown; message?: string; data?: unknown };
  return {
    jsonrpc: '2.0',
    id,
    error: {
      code: Number.isSafeInteger(thrown.code) ? thrown.code : -32603,
      message: thrown.message ?? 'Internal error',
      ...(thrown.data !== undefined && { data: thrown.data }),
    },
  };
}

/** Serves fast-path tools/calls: `take` answers one, `cancel` drops an answer in flight. */
export class FastCalls {
  /** Requests in flight here, by id: true once cancelled. */
  readonly #inFlight = new Map<unknown, { cancelled: boolean }>();

  constructor(
    private readonly callTool: CallTool,
    private readonly send: (message: Json) => Promise<void>,
    private readonly fail: (error: Error) => void,
  ) {}

  /** Serves `message` when it is a plain tools/call; false when the SDK must have it. */
  take(message: unknown): boolean {
    const call = fastCallOf(message);
    if (!call) return false;
    const state = { cancelled: false };
    const { id, params } = call;
    this.#inFlight.set(id, state);
    // Two hops, as the SDK's: a notification read before this request is handled first.
    Promise.resolve()
      .then(() => undefined)
      .then(() => this.callTool(params))
      .then(
        async (result) => (state.cancelled ? undefined : await this.send({ result, jsonrpc: '2.0', id })),
        async (error: unknown) => (state.cancelled ? undefined : await this.send(errorAnswer(id, error))),
      )
      .catch((error: unknown) => this.fail(new Error(`Failed to send response: ${error}`)))
      .finally(() => {
        if (this.#inFlight.get(id) === state) this.#inFlight.delete(id);
      });
    return true;
  }

  /** Drops the answer of a request in flight here; false when it is not one of these. */
  cancel(message: unknown): boolean {
    const state = this.#inFlight.get(cancelledId(message));
    if (!state) return false;
    state.cancelled = true;
    return true;
  }
}

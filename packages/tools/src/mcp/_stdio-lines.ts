/**
 * @module mcp/stdio-lines
 * Newline-delimited JSON-RPC in, with every request answered: a line over the limit is
 * not kept (only its start and end, to recover the request's id), and a request the
 * SDK's schemas refuse (e.g. a tools/call with `"params": null`) gets an error answer
 * with its id instead of silence, so a client never waits for its own timeout.
 *
 * No runtime imports: this module is on the start-up path.
 */
import type { JsonRpcId } from './_handshake';

/** Largest line accepted, as the SDK's stdio transport (10 MiB). */
export const MAX_LINE_BYTES = 10 * 1024 * 1024;

/** How much of an oversize line's start and end is kept to recover its id and method. */
const KEPT_BYTES = 64 * 1024;

/** What is known of a line over the limit. */
export interface OversizeLine {
  readonly head: string;
  readonly tail: string;
  readonly bytes: number;
}

/** Splits a byte stream into lines without ever holding more than `max` bytes of one. */
export class LineSplitter {
  #chunks: Buffer[] = [];
  #size = 0;
  #over: { head: Buffer; tail: Buffer; bytes: number } | undefined;

  constructor(
    private readonly onLine: (line: string) => void,
    private readonly onOversize: (line: OversizeLine) => void,
    private readonly max = MAX_LINE_BYTES,
  ) {}

  push(chunk: Buffer): void {
    let start = 0;
    for (;;) {
      const newline = chunk.indexOf(10, start);
      this.#append(chunk.subarray(start, newline === -1 ? chunk.length : newline));
      if (newline === -1) return;
      this.#endLine();
      start = newline + 1;
    }
  }

  #append(piece: Buffer): void {
    if (piece.length === 0) return;
    if (this.#over) {
      this.#over.bytes += piece.length;
      this.#over.tail = lastBytes(Buffer.concat([this.#over.tail, piece]));
      return;
    }
    this.#chunks.push(piece);
    this.#size += piece.length;
    if (this.#size <= this.max) return;
    const all = Buffer.concat(this.#chunks);
    this.#over = { head: Buffer.from(all.subarray(0, KEPT_BYTES)), tail: lastBytes(all), bytes: all.length };
    this.#chunks = [];
    this.#size = 0;
  }

  #endLine(): void {
    const over = this.#over;
    if (over) {
      this.#over = undefined;
      this.onOversize({ head: over.head.toString('utf8'), tail: over.tail.toString('utf8'), bytes: over.bytes });
      return;
    }
    const line = Buffer.concat(this.#chunks).toString('utf8').replace(/\r$/, '');
    this.#chunks = [];
    this.#size = 0;
    this.onLine(line);
  }
}

function lastBytes(buffer: Buffer): Buffer {
  return buffer.length <= KEPT_BYTES ? buffer : Buffer.from(buffer.subarray(buffer.length - KEPT_BYTES));
}

const STRING = '"(?:[^"\\\\]|\\\\.)*"';
const ID = `(-?\\d+|${STRING})`;
const SIMPLE_PAIR = `\\s*"[A-Za-z_]+"\\s*:\\s*(?:${STRING}|-?\\d+)\\s*,`;
/** The top-level id when it comes before any nested value (`{"jsonrpc":"2.0","id":1,...`). */
const HEAD_ID = new RegExp(`^\\s*\\{(?:${SIMPLE_PAIR})*\\s*"id"\\s*:\\s*${ID}`);
/** The top-level id when it comes last (the SDK client writes `{method,params,jsonrpc,id}`). */
const TAIL_ID = new RegExp(`"id"\\s*:\\s*${ID}(?:\\s*,\\s*"[A-Za-z_]+"\\s*:\\s*${STRING})*\\s*\\}\\s*$`);
const HEAD_METHOD = new RegExp(`^\\s*\\{(?:${SIMPLE_PAIR})*\\s*"method"\\s*:\\s*(${STRING})`);
const TAIL_METHOD = new RegExp(
  `"method"\\s*:\\s*(${STRING})(?:\\s*,\\s*"[A-Za-z_]+"\\s*:\\s*(?:${STRING}|-?\\d+))*\\s*\\}\\s*$`,
);
const TOOL_NAME = new RegExp(`"params"\\s*:\\s*\\{\\s*"name"\\s*:\\s*(${STRING})`);

/** The id, method and tool name of a line recoverable from its start and end. */
export function recoverRequest(head: string, tail: string): { id: JsonRpcId | null; method?: string; tool?: string } {
  const parse = (match: RegExpMatchArray | null): unknown => {
    if (!match?.[1]) return undefined;
    try {
      return JSON.parse(match[1]);
    } catch {
      return undefined;
    }
  };
  const id = parse(head.match(HEAD_ID)) ?? parse(tail.match(TAIL_ID));
  const method = parse(head.match(HEAD_METHOD)) ?? parse(tail.match(TAIL_METHOD));
  const tool = method === 'tools/call' ? parse(head.match(TOOL_NAME)) : undefined;
  return {
    id: typeof id === 'string' || typeof id === 'number' ? id : null,
    ...(typeof method === 'string' ? { method } : {}),
    ...(typeof tool === 'string' ? { tool: tool.length > 64 ? `${tool.slice(0, 63)}…` : tool } : {}),
  };
}

/**
 * The answer to a line over the limit: for a tools/call, a tool error in the contract's
 * shape (INVALID_PARAMETERS); otherwise JSON-RPC -32600 Invalid Request, with `id: null`
 * when the id could not be recovered.
 */
export function oversizeAnswer(line: OversizeLine, now: number, max = MAX_LINE_BYTES): unknown {
  const { id, method, tool } = recoverRequest(line.head, line.tail);
  const message = `request line of ${line.bytes} bytes is over the ${max}-byte limit`;
  if (id !== null && method === 'tools/call') {
    const payload = {
      code: 'INVALID_PARAMETERS',
      error: `invalid arguments: ${message}`,
      tool: tool ?? '',
      timestamp: new Date(now).toISOString(),
    };
    return {
      result: { content: [{ type: 'text', text: JSON.stringify(payload) }], isError: true },
      jsonrpc: '2.0',
      id,
    };
  }
  return { jsonrpc: '2.0', id, error: { code: -32600, message: `Invalid Request: ${message}` } };
}

/**
 * The answer to a parsed line the SDK's message schemas refuse, when it is a request
 * (it has an id): -32602 for a known method with bad params, -32600 otherwise.
 * Undefined for anything without an id (a notification or a stray response: no answer).
 */
export function refusedMessageAnswer(line: string): unknown {
  let message: unknown;
  try {
    message = JSON.parse(line);
  } catch {
    const { id } = recoverRequest(line, line);
    return id === null ? undefined : { jsonrpc: '2.0', id, error: { code: -32700, message: 'Parse error' } };
  }
  if (message === null || typeof message !== 'object' || Array.isArray(message)) return undefined;
  const { id, method, params } = message as { id?: unknown; method?: unknown; params?: unknown };
  if (typeof id !== 'string' && typeof id !== 'number') return undefined;
  if (typeof method === 'string' && params !== undefined && (params === null || typeof params !== 'object')) {
    return {
      jsonrpc: '2.0',
      id,
      error: {
        code: -32602,
        message: `Invalid params: ${method} takes an object as params, not ${params === null ? 'null' : typeof params}`,
      },
    };
  }
  return { jsonrpc: '2.0', id, error: { code: -32600, message: 'Invalid Request: not a JSON-RPC 2.0 request' } };
}

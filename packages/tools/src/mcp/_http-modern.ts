/**
 * @module mcp/http-modern
 * A Streamable HTTP request on revision 2026-07-28 (its `MCP-Protocol-Version` header
 * names it). The SDK's HTTP transport refuses that header, so such a request never
 * reaches it: the headers are checked against the body here (the revision's Server
 * Validation), discovery and version refusals come from `_modern.ts`, and anything else
 * is answered by a fresh SDK server over an in-process transport, its result completed
 * with the fields the revision requires. One POST, one JSON answer; nothing is kept.
 */
import type { IncomingMessage } from 'node:http';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { answerModern, headerMismatch, type ModernServer, modernAnswer, PROTOCOL_VERSION_META } from './_modern';
import { createMcpServer, type McpServerOptions } from './_server';

type Json = Record<string, unknown>;

/** An HTTP status and the JSON body to send (none for an accepted notification). */
export interface ModernReply {
  readonly status: number;
  readonly body?: Json;
}

/** Methods whose `Mcp-Name` header mirrors `params.name` (or `params.uri`). */
const NAMED: Readonly<Record<string, 'name' | 'uri'>> = {
  'tools/call': 'name',
  'prompts/get': 'name',
  'resources/read': 'uri',
};

const BASE64 = /^=\?base64\?([A-Za-z0-9+/=]*)\?=$/;

export async function answerModernHttp(
  req: IncomingMessage,
  message: unknown,
  version: string,
  server: ModernServer,
  options: McpServerOptions,
): Promise<ModernReply> {
  if (!isObject(message) || message.jsonrpc !== '2.0' || typeof message.method !== 'string') {
    return { status: 400, body: { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'invalid request' } } };
  }
  const id = typeof message.id === 'string' || typeof message.id === 'number' ? message.id : null;
  // A notification: this revision defines none over HTTP, and colony needs none.
  if (!('id' in message)) return { status: 202 };
  const mismatch = checkHeaders(req, message, version);
  if (mismatch) return { status: 400, body: headerMismatch(id, mismatch) };
  const own = answerModern(message, server);
  if (own) return { status: 'error' in own ? 400 : 200, body: own };
  const answer = modernAnswer(message.method, await answerOnce(options, message as JSONRPCMessage));
  const error = answer.error as { code?: number } | undefined;
  return { status: error?.code === -32601 ? 404 : 200, body: answer };
}

/** What is wrong with the request's mirrored headers, or undefined when they match the body. */
function checkHeaders(req: IncomingMessage, message: Json, version: string): string | undefined {
  const method = req.headers['mcp-method'];
  if (method === undefined) return 'the Mcp-Method header is missing';
  if (method !== message.method)
    return `Mcp-Method header value '${method}' does not match body value '${message.method}'`;
  const params = isObject(message.params) ? message.params : {};
  const meta = isObject(params._meta) ? params._meta : {};
  if (meta[PROTOCOL_VERSION_META] !== version) {
    return `MCP-Protocol-Version header value '${version}' does not match _meta value '${String(meta[PROTOCOL_VERSION_META])}'`;
  }
  const field = NAMED[message.method as string];
  if (field === undefined) return undefined;
  const raw = req.headers['mcp-name'];
  if (typeof raw !== 'string') return 'the Mcp-Name header is missing';
  const encoded = BASE64.exec(raw);
  const name = encoded ? Buffer.from(encoded[1] ?? '', 'base64').toString('utf8') : raw;
  return name === params[field]
    ? undefined
    : `Mcp-Name header value '${name}' does not match body value '${String(params[field])}'`;
}

/** The SDK server's answer to one request, over an in-process transport. */
async function answerOnce(options: McpServerOptions, message: JSONRPCMessage): Promise<Json> {
  const server = createMcpServer(options);
  let resolve!: (answer: Json) => void;
  const answered = new Promise<Json>((r) => {
    resolve = r;
  });
  const transport = {
    onmessage: undefined as ((message: JSONRPCMessage) => void) | undefined,
    onclose: undefined as (() => void) | undefined,
    onerror: undefined as ((error: Error) => void) | undefined,
    async start() {},
    async send(answer: JSONRPCMessage) {
      if ('id' in answer && answer.id === (message as { id?: unknown }).id && !('method' in answer)) {
        resolve(answer as unknown as Json);
      }
    },
    async close() {
      transport.onclose?.();
    },
  };
  await server.connect(transport);
  try {
    transport.onmessage?.(message);
    return await answered;
  } finally {
    await server.close();
  }
}

function isObject(value: unknown): value is Json {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

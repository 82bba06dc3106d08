/**
 * @module mcp/handshake
 * What a server answers before any tool runs (initialize, ping, tools/list) is fixed
 * once the tool catalog and the MCP SDK are: `mcpHandshake` computes it at build time,
 * and `answerHandshake` serves it, so a stdio server answers an IDE's handshake without
 * loading the SDK, zod or SQLite. Only messages of the plain shapes below are answered
 * here, and only in ways the SDK's schemas accept; anything else is left to the SDK
 * server, so no client gets an answer the SDK server would not give.
 *
 * No runtime imports: this module is on the start-up path.
 */
import type { Toolset } from '../toolsets';
import { CACHE_HINT, isModernRequest } from './_modern';

/** Build-time answers to the MCP handshake (see `mcpHandshake` in `@swarm/tools/mcp`). */
export interface McpHandshake {
  /** The SDK's LATEST_PROTOCOL_VERSION and SUPPORTED_PROTOCOL_VERSIONS. */
  readonly protocol: { readonly latest: string; readonly supported: readonly string[] };
  /** What the SDK server reports in `initialize` for colony's server options. */
  readonly capabilities: Readonly<Record<string, unknown>>;
  /**
   * The tools of each toolset's tools/list answer, as JSON text: served as it is, with
   * no object graph to build or serialize on the start-up path.
   */
  readonly tools: Readonly<Partial<Record<Toolset, string>>>;
}

export interface ServerIdentity {
  readonly name: string;
  readonly version: string;
  readonly instructions?: string;
}

export type JsonRpcId = string | number;

/**
 * A request answered from the handshake data (its result as JSON text), the
 * `notifications/initialized` that needs no answer, or `undefined`: not a plain
 * handshake message, so the SDK decides.
 */
export type HandshakeAnswer =
  | { readonly kind: 'result'; readonly id: JsonRpcId; readonly resultJson: string }
  | { readonly kind: 'initialized' }
  | undefined;

/** The JSON-RPC line of an answer, as the SDK writes it (`{ result, jsonrpc, id }`). */
export function answerLine(id: JsonRpcId, resultJson: string): string {
  return `{"result":${resultJson},"jsonrpc":"2.0","id":${JSON.stringify(id)}}\n`;
}

type Json = Record<string, unknown>;

export function answerHandshake(
  message: unknown,
  handshake: McpHandshake,
  identity: ServerIdentity,
  toolset: Toolset,
): HandshakeAnswer {
  if (!isPlainObject(message) || message.jsonrpc !== '2.0' || typeof message.method !== 'string') return undefined;
  if (!('id' in message)) {
    const plain = onlyKeys(message, ['jsonrpc', 'method', 'params']) && isEmptyParams(message.params);
    return plain && message.method === 'notifications/initialized' ? { kind: 'initialized' } : undefined;
  }
  const { id, params } = message;
  if (!onlyKeys(message, ['jsonrpc', 'id', 'method', 'params']) || !isRequestId(id)) return undefined;
  switch (message.method) {
    case 'ping':
      return isEmptyParams(params) ? { kind: 'result', id, resultJson: '{}' } : undefined;
    case 'tools/list': {
      const tools = handshake.tools[toolset];
      if (isModernRequest(message) && tools !== undefined && isPlainObject(params) && isModernListParams(params)) {
        return { kind: 'result', id, resultJson: `{"tools":${tools},${MODERN_LIST_FIELDS}}` };
      }
      const plain = isEmptyParams(params) || (isPlainObject(params) && isOnlyCursor(params));
      return tools !== undefined && plain ? { kind: 'result', id, resultJson: `{"tools":${tools}}` } : undefined;
    }
    case 'initialize':
      return isPlainInitialize(params)
        ? { kind: 'result', id, resultJson: JSON.stringify(initializeResult(params, handshake, identity)) }
        : undefined;
    default:
      return undefined;
  }
}

/** The SDK server's answer to initialize: the client's protocol version if supported, else the latest. */
function initializeResult(params: Json, handshake: McpHandshake, identity: ServerIdentity): Json {
  const requested = params.protocolVersion as string;
  return {
    protocolVersion: handshake.protocol.supported.includes(requested) ? requested : handshake.protocol.latest,
    capabilities: handshake.capabilities,
    serverInfo: { name: identity.name, version: identity.version },
    ...(identity.instructions ? { instructions: identity.instructions } : {}),
  };
}

/**
 * An initialize request the SDK's InitializeRequestSchema surely accepts: the fields it
 * checks have the types it wants, and anything unusual (icons, _meta, task or
 * experimental capabilities of unknown shape) is left to the SDK.
 */
function isPlainInitialize(params: unknown): params is Json {
  if (!isPlainObject(params) || !onlyKeys(params, ['protocolVersion', 'capabilities', 'clientInfo'])) return false;
  const { protocolVersion, capabilities, clientInfo } = params;
  if (typeof protocolVersion !== 'string' || !isPlainObject(clientInfo) || !isPlainObject(capabilities)) return false;
  if (typeof clientInfo.name !== 'string' || typeof clientInfo.version !== 'string' || 'icons' in clientInfo) {
    return false;
  }
  for (const key of ['title', 'websiteUrl', 'description']) {
    if (key in clientInfo && typeof clientInfo[key] !== 'string') return false;
  }
  return Object.entries(capabilities).every(([key, value]) => isPlainCapability(key, value));
}

function isPlainCapability(key: string, value: unknown): boolean {
  if (!isPlainObject(value)) return false;
  switch (key) {
    case 'roots':
      return !('listChanged' in value) || typeof value.listChanged === 'boolean';
    case 'sampling':
      return Object.entries(value).every(([k, v]) => (k === 'context' || k === 'tools' ? isPlainObject(v) : true));
    case 'elicitation': {
      const { form, url } = value;
      if (!onlyKeys(value, ['form', 'url'])) return false;
      if (
        form !== undefined &&
        !(isPlainObject(form) && [undefined, true, false].includes(form.applyDefaults as never))
      ) {
        return false;
      }
      return url === undefined || isPlainObject(url);
    }
    case 'experimental':
    case 'extensions':
      return Object.values(value).every(isPlainObject);
    default:
      // Known capabilities with richer shapes (tasks) only when empty; unknown ones are
      // stripped by the SDK's schema, whatever they hold.
      return key === 'tasks' ? Object.keys(value).length === 0 : true;
  }
}

/** What revision 2026-07-28 adds to a tools/list result (see `_modern.ts`). */
const MODERN_LIST_FIELDS = JSON.stringify({ resultType: 'complete', ...CACHE_HINT }).slice(1, -1);

/** Params of a modern list request: its `_meta` and perhaps a cursor, nothing the SDK should weigh. */
function isModernListParams(params: Json): boolean {
  return onlyKeys(params, ['_meta', 'cursor']) && (params.cursor === undefined || typeof params.cursor === 'string');
}

function isEmptyParams(params: unknown): boolean {
  return params === undefined || (isPlainObject(params) && Object.keys(params).length === 0);
}

function isOnlyCursor(params: Json): boolean {
  return onlyKeys(params, ['cursor']) && typeof params.cursor === 'string';
}

function isRequestId(id: unknown): id is JsonRpcId {
  return typeof id === 'string' || Number.isSafeInteger(id);
}

function isPlainObject(value: unknown): value is Json {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function onlyKeys(value: Json, allowed: readonly string[]): boolean {
  return Object.keys(value).every((key) => allowed.includes(key));
}

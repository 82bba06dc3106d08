/**
 * @module mcp/modern
 * MCP revision 2026-07-28 ("modern") next to the SDK's handshake revisions ("legacy").
 * A modern client sends no initialize: every request names its revision, capabilities
 * and identity in `params._meta`, may first ask `server/discover`, and expects every
 * result to say `resultType` (list results also a cache hint). The SDK (1.x) knows none
 * of this, so both fronts (stdio, HTTP) answer discovery and version refusals here and
 * let the SDK server answer everything else, adding the fields the revision requires.
 *
 * No runtime imports: the stdio front answers discovery before the SDK loads.
 */

/** The per-request revisions served here; the legacy ones are the SDK's. */
export const MODERN_PROTOCOL_VERSIONS: readonly string[] = ['2026-07-28'];

/** Where a modern request names its revision (and on HTTP, the `MCP-Protocol-Version` header). */
export const PROTOCOL_VERSION_META = 'io.modelcontextprotocol/protocolVersion';

/** The JSON-RPC error codes the revision reserves (-32020 to -32099). */
export const MODERN_ERROR = { headerMismatch: -32020, unsupportedVersion: -32022 } as const;

/**
 * How long a client may cache discovery and tools/list: the catalog is fixed for the
 * life of a server process, and holds nothing private to a caller.
 */
export const CACHE_HINT = { ttlMs: 3_600_000, cacheScope: 'public' } as const;

type Json = Record<string, unknown>;
type JsonRpcId = string | number;

export interface ModernServer {
  /** The SDK's LATEST_PROTOCOL_VERSION and SUPPORTED_PROTOCOL_VERSIONS (legacy). */
  readonly protocol: { readonly latest: string; readonly supported: readonly string[] };
  readonly capabilities: Readonly<Record<string, unknown>>;
  readonly identity: { readonly name: string; readonly version: string; readonly instructions?: string };
}

/** Every revision this server speaks, newest first: the modern ones, then the SDK's. */
export function supportedVersions(server: Pick<ModernServer, 'protocol'>): string[] {
  return [
    ...MODERN_PROTOCOL_VERSIONS,
    ...server.protocol.supported.filter((v) => !MODERN_PROTOCOL_VERSIONS.includes(v)),
  ];
}

/**
 * The revision a request names in its `_meta`, or undefined: a legacy request (or a
 * notification, or not a request at all).
 */
export function metaVersion(message: unknown): unknown {
  if (!isObject(message) || !isObject(message.params) || !isObject(message.params._meta)) return undefined;
  return message.params._meta[PROTOCOL_VERSION_META];
}

/** A modern request: a JSON-RPC request naming a modern revision in `_meta`. */
export function isModernRequest(message: unknown): message is Json & { id: JsonRpcId; method: string } {
  const version = metaVersion(message);
  return (
    typeof version === 'string' &&
    MODERN_PROTOCOL_VERSIONS.includes(version) &&
    isObject(message) &&
    typeof message.method === 'string' &&
    (typeof message.id === 'string' || typeof message.id === 'number')
  );
}

/**
 * The answer to a request only the modern revision defines, or that names a revision
 * this server does not speak; undefined for anything the SDK server answers.
 * `server/discover` is answered whatever `_meta` says (a dual-era client probes with it).
 */
export function answerModern(message: unknown, server: ModernServer): Json | undefined {
  if (!isObject(message) || message.jsonrpc !== '2.0' || typeof message.method !== 'string') return undefined;
  const { id } = message;
  if (typeof id !== 'string' && typeof id !== 'number') return undefined;
  const version = metaVersion(message);
  const supported = supportedVersions(server);
  if (version !== undefined && (typeof version !== 'string' || !supported.includes(version))) {
    return unsupportedVersion(id, String(version), supported);
  }
  if (message.method !== 'server/discover') return undefined;
  return { jsonrpc: '2.0', id, result: discoverResult(server) };
}

/** The `server/discover` result: revisions, capabilities, identity, instructions, cache hint. */
export function discoverResult(server: ModernServer): Json {
  const { name, version, instructions } = server.identity;
  return {
    resultType: 'complete',
    supportedVersions: supportedVersions(server),
    capabilities: server.capabilities,
    _meta: { 'io.modelcontextprotocol/serverInfo': { name, version } },
    ...(instructions ? { instructions } : {}),
    ...CACHE_HINT,
  };
}

/** UnsupportedProtocolVersionError: the request's revision is not one this server speaks. */
export function unsupportedVersion(id: JsonRpcId | null, requested: string, supported: readonly string[]): Json {
  return {
    jsonrpc: '2.0',
    id,
    error: {
      code: MODERN_ERROR.unsupportedVersion,
      message: 'Unsupported protocol version',
      data: { supported: [...supported], requested },
    },
  };
}

/** HeaderMismatchError: an HTTP header missing, or saying other than the body. */
export function headerMismatch(id: JsonRpcId | null, detail: string): Json {
  return { jsonrpc: '2.0', id, error: { code: MODERN_ERROR.headerMismatch, message: `Header mismatch: ${detail}` } };
}

/**
 * The SDK server's answer to a modern request, as the revision wants it: a result says
 * `resultType: "complete"` (colony never asks the client for input) and a tools/list
 * result carries the cache hint. Errors pass unchanged.
 */
export function modernAnswer(method: string, answer: Json): Json {
  if (!isObject(answer.result)) return answer;
  const result = { ...answer.result, resultType: 'complete', ...(method === 'tools/list' ? CACHE_HINT : {}) };
  return { ...answer, result };
}

function isObject(value: unknown): value is Json {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * @module mcp/mcp-tools
 * MCP tools as agent tools: names namespaced `mcp__<server>__<tool>` (the convention
 * Claude Code uses for colony itself, so permission rules read the same), and a
 * `tools/call` result turned into the text a tool_result carries.
 */

export const MCP_PREFIX = 'mcp__';
/** What the Messages API accepts as a tool name. */
const TOOL_NAME = /^[a-zA-Z0-9_-]{1,128}$/;

export function prefixedName(server: string, tool: string): string {
  return `${MCP_PREFIX}${server}__${tool}`;
}

/** `mcp__<server>__<tool>` -> its parts (server names hold no `__`), else null. */
export function parsePrefixedName(name: string): { server: string; tool: string } | null {
  if (!name.startsWith(MCP_PREFIX)) return null;
  const rest = name.slice(MCP_PREFIX.length);
  const at = rest.indexOf('__');
  if (at <= 0 || at + 2 >= rest.length) return null;
  return { server: rest.slice(0, at), tool: rest.slice(at + 2) };
}

export function isValidToolName(name: string): boolean {
  return TOOL_NAME.test(name);
}

interface ContentItem {
  readonly type: string;
  readonly text?: string;
  readonly mimeType?: string;
  readonly data?: string;
  readonly uri?: string;
  readonly resource?: { readonly uri?: string; readonly text?: string; readonly mimeType?: string };
}

/** The text of a `tools/call` result: text items as they are, other items described. */
export function resultText(result: {
  readonly content?: unknown;
  readonly structuredContent?: unknown;
  readonly toolResult?: unknown;
}): string {
  const items = Array.isArray(result.content) ? (result.content as ContentItem[]) : [];
  const parts = items.map(describe);
  if (parts.length === 0 && result.structuredContent !== undefined) return JSON.stringify(result.structuredContent);
  if (parts.length === 0 && result.toolResult !== undefined) return JSON.stringify(result.toolResult);
  return parts.join('\n');
}

function describe(item: ContentItem): string {
  switch (item.type) {
    case 'text':
      return item.text ?? '';
    case 'image':
    case 'audio':
      return `[${item.type} ${item.mimeType ?? ''} (${Math.floor(((item.data?.length ?? 0) * 3) / 4)} bytes)]`;
    case 'resource':
      return item.resource?.text ?? `[resource ${item.resource?.uri ?? ''}]`;
    case 'resource_link':
      return `[resource link ${item.uri ?? ''}]`;
    default:
      return `[${item.type}]`;
  }
}

/**
 * @module docs
 * Renders docs/mcp.md from the tool definitions, so the reference can never drift
 * from what the server serves. A test fails when the committed file is stale.
 */
import type { Tool } from './define-tool';
import { fullInputJsonSchema, type JsonSchema } from './json-schema';

export interface DocsOptions {
  /** Hand-written text placed before the generated reference. */
  readonly preamble: string;
}

export function renderToolDocs(tools: readonly Tool<never>[], options: DocsOptions): string {
  const out: string[] = [
    '<!-- Generated from the tool registry by `pnpm docs:mcp`. Do not edit by hand: edit the tool definitions. -->',
    '',
    options.preamble.trim(),
    '',
    '## Tool index',
    '',
    '| Tool | Toolset | Writes | Use |',
    '| --- | --- | --- | --- |',
    ...tools.map((t) => {
      const toolset = t.surface !== 'contract' ? t.surface : t.core ? 'core' : 'all';
      return `| [${t.name}](#${t.name}) | ${toolset} | ${t.mutates ? 'yes' : 'no'} | ${cell(t.description)} |`;
    }),
    '',
  ];
  for (const tool of tools) out.push(...section(tool));
  return `${out.join('\n').trimEnd()}\n`;
}

function section(tool: Tool<never>): string[] {
  const schema = fullInputJsonSchema(tool);
  const lines = [`## ${tool.name}`, '', `**${tool.title}** (${hints(tool)}). ${tool.description}`, ''];
  if (tool.docs.notes) lines.push(tool.docs.notes, '');
  lines.push('| Argument | Type | Required | Default |', '| --- | --- | --- | --- |');
  const required = new Set((schema.required as string[] | undefined) ?? []);
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  for (const [name, prop] of Object.entries(properties)) {
    const fallback = prop.default === undefined ? '' : `\`${JSON.stringify(prop.default)}\``;
    const type = prop.description ? `${typeOf(prop)}: ${prop.description}` : typeOf(prop);
    lines.push(`| \`${name}\` | ${cell(type)} | ${required.has(name) ? 'yes' : 'no'} | ${fallback} |`);
  }
  lines.push('', `**Returns:** ${tool.docs.returns}`, '');
  const errors = ['INVALID_PARAMETERS', ...(tool.docs.errors ?? [])];
  lines.push(`**Errors:** ${errors.map((e) => `\`${e}\``).join(', ')}`, '');
  lines.push('```json', JSON.stringify({ name: tool.name, input: tool.docs.example }), '```', '');
  return lines;
}

/** The tool's MCP annotations in words. */
function hints(tool: Tool<never>): string {
  const a = tool.annotations;
  const words = a.readOnlyHint
    ? ['read-only']
    : [a.destructiveHint ? 'destructive' : 'additive', ...(a.idempotentHint ? ['idempotent'] : [])];
  return [...words, a.openWorldHint ? 'open world' : 'closed world'].join(', ');
}

function typeOf(prop: JsonSchema): string {
  if (Array.isArray(prop.enum)) return prop.enum.map((v) => `\`${String(v)}\``).join(' \\| ');
  if (Array.isArray(prop.anyOf)) return (prop.anyOf as JsonSchema[]).map(typeOf).join(' or ');
  const type = String(prop.type ?? 'any');
  const bounds: string[] = [];
  // Safe-integer bounds are JSON Schema's spelling of "an integer", not a real limit.
  if (prop.minimum !== undefined && prop.minimum !== Number.MIN_SAFE_INTEGER) bounds.push(`>= ${prop.minimum}`);
  if (prop.exclusiveMinimum !== undefined) bounds.push(`> ${prop.exclusiveMinimum}`);
  if (prop.maximum !== undefined && prop.maximum !== Number.MAX_SAFE_INTEGER) bounds.push(`<= ${prop.maximum}`);
  if (prop.maxLength !== undefined) bounds.push(`max ${prop.maxLength} chars`);
  if (prop.maxItems !== undefined) bounds.push(`max ${prop.maxItems} items`);
  if (type === 'array' && prop.items)
    return `${typeOf(prop.items as JsonSchema)}[]${bounds.length ? ` (${bounds.join(', ')})` : ''}`;
  if (type === 'object' && prop.properties) return `object { ${Object.keys(prop.properties as object).join(', ')} }`;
  return bounds.length ? `${type} (${bounds.join(', ')})` : type;
}

function cell(text: string): string {
  return text.replaceAll('|', '\\|').replaceAll('\n', ' ');
}

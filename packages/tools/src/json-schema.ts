/**
 * @module json-schema
 * The JSON Schema of a tool's input. Models get the lean form: types, enums, required
 * fields, defaults and any description, without bounds or patterns (tools/list is read
 * by every agent on every turn; the server enforces every bound anyway and names the
 * field that broke one). docs/mcp.md shows the full form, bounds included.
 */
import { z } from 'zod';
import type { Tool } from './define-tool';

export type JsonSchema = Record<string, unknown>;

const lean = new WeakMap<Tool<never>, JsonSchema>();
const full = new WeakMap<Tool<never>, JsonSchema>();

/** Keywords a model needs to call a tool right. Everything else is left out. */
const KEPT = new Set(['type', 'properties', 'required', 'items', 'enum', 'const', 'anyOf', 'default', 'description']);

/**
 * The input schema as sent to models: compact JSON Schema (`type: "object"`), without
 * the tool's unlisted arguments (`idempotency_key`: documented in the full form).
 */
export function inputJsonSchema(tool: Tool<never>): JsonSchema {
  let schema = lean.get(tool);
  if (!schema) {
    schema = keep(fullInputJsonSchema(tool), false) as JsonSchema;
    // Accepted but not published: the schema an outside contract fixes (seed 001).
    const properties = schema.properties as Record<string, unknown> | undefined;
    for (const name of tool.unlisted) delete properties?.[name];
    lean.set(tool, schema);
  }
  return schema;
}

/** The input schema with every bound, for documentation. */
export function fullInputJsonSchema(tool: Tool<never>): JsonSchema {
  let schema = full.get(tool);
  if (!schema) {
    schema = z.toJSONSchema(tool.input, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
    delete schema.$schema;
    delete schema.additionalProperties;
    full.set(tool, schema);
  }
  return schema;
}

function isEmpty(value: unknown): boolean {
  return value === false || value === '' || (Array.isArray(value) && value.length === 0);
}

function keep(node: unknown, inProperties: boolean): unknown {
  if (Array.isArray(node)) return node.map((n) => keep(n, false));
  if (node === null || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    // Under `properties` the keys are argument names, not keywords.
    if (!inProperties && !KEPT.has(key)) continue;
    // An empty default (off, none, blank) says nothing a model does not assume.
    if (!inProperties && key === 'default' && isEmpty(value)) continue;
    out[key] = keep(value, key === 'properties' && !inProperties);
  }
  return out;
}

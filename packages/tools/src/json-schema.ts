/**
 * @module json-schema
 * The JSON Schema of a tool's input, as sent to models. Kept lean: tools/list is read
 * by every agent on every turn, so nothing the model does not need is included.
 */
import { z } from 'zod';
import type { Tool } from './define-tool';

export type JsonSchema = Record<string, unknown>;

const cache = new WeakMap<Tool<never>, JsonSchema>();

/** The input schema of a tool as a compact JSON Schema object (`type: "object"`). */
export function inputJsonSchema(tool: Tool<never>): JsonSchema {
  let schema = cache.get(tool);
  if (!schema) {
    schema = prune(z.toJSONSchema(tool.input, { io: 'input', unrepresentable: 'any' })) as JsonSchema;
    delete schema.$schema;
    cache.set(tool, schema);
  }
  return schema;
}

const NOISE = new Set(['$schema', 'additionalProperties']);

function prune(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(prune);
  if (node === null || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (NOISE.has(key)) continue;
    // Integer bounds JSON Schema adds for safe integers carry no meaning for a model.
    if (
      (key === 'maximum' && value === Number.MAX_SAFE_INTEGER) ||
      (key === 'minimum' && value === Number.MIN_SAFE_INTEGER)
    )
      continue;
    out[key] = prune(value);
  }
  return out;
}

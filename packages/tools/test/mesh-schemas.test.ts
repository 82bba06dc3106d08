/**
 * Seed 001 fixes the function-calling schemas of its seven tools word for word. The
 * fixture holds the seed's JSON blocks as copied from the seed; getSchemas(), derived
 * from the tool definitions, must equal them, and so must every other surface.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  COLONY_TOOLS,
  ColonyError,
  errorCodeOf,
  getSchemas,
  inputJsonSchema,
  MESH_TOOLS,
  type Tool,
  toAnthropicTools,
  toErrorPayload,
  toOpenAITools,
} from '../src/index';

const seed = JSON.parse(readFileSync(new URL('./fixtures/seed-001-schemas.json', import.meta.url), 'utf8')) as Array<{
  type: 'function';
  function: { name: string; description: string; parameters: Record<string, unknown> };
}>;

describe('getSchemas()', () => {
  it("returns exactly the seed's seven function-calling schemas, in the seed's order", () => {
    expect(seed).toHaveLength(7);
    expect(getSchemas()).toStrictEqual(seed);
  });

  it('is what the framework toolset exports for those tools, to OpenAI and Anthropic alike', () => {
    const names = new Set(seed.map((s) => s.function.name));
    const openai = toOpenAITools(COLONY_TOOLS as readonly Tool<never>[], 'framework').filter((t) =>
      names.has(t.function.name),
    );
    expect(openai).toStrictEqual(seed);
    const anthropic = toAnthropicTools(COLONY_TOOLS as readonly Tool<never>[], 'framework').filter((t) =>
      names.has(t.name),
    );
    expect(anthropic).toStrictEqual(
      seed.map((s) => ({
        name: s.function.name,
        description: s.function.description,
        input_schema: s.function.parameters,
      })),
    );
    for (const tool of MESH_TOOLS as readonly Tool<never>[]) {
      expect(inputJsonSchema(tool), tool.name).toStrictEqual(
        seed.find((s) => s.function.name === tool.name)!.function.parameters,
      );
    }
  });

  it('gives the mesh tools the seed error format, their caller argument, and an unlisted idempotency_key when they mutate', () => {
    for (const tool of MESH_TOOLS) {
      expect(tool.errorFormat, tool.name).toBe('syntha');
      expect(tool.surface, tool.name).toBe('framework');
      expect(['agent_name', 'from_agent'], tool.name).toContain(tool.callerArg);
      expect('idempotency_key' in tool.input.shape, tool.name).toBe(tool.mutates);
      expect(inputJsonSchema(tool).properties, tool.name).not.toHaveProperty('idempotency_key');
    }
  });
});

describe('the seed error shape', () => {
  it('words a refusal as { success: false, error, error_code, tool, timestamp } plus details', () => {
    const error = new ColonyError('ACCESS_DENIED', 'no', { details: { key: 'k' } });
    const payload = toErrorPayload(error, 'get_context', Date.UTC(2024, 0, 1, 12), 'syntha');
    expect(payload).toStrictEqual({
      success: false,
      error: 'no',
      error_code: 'ACCESS_DENIED',
      tool: 'get_context',
      timestamp: '2024-01-01T12:00:00.000Z',
      key: 'k',
    });
    expect(errorCodeOf(payload)).toBe('ACCESS_DENIED');
    expect(errorCodeOf(toErrorPayload(error, 'ctx_get', 0))).toBe('ACCESS_DENIED');
  });
});

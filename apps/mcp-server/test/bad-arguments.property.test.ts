/**
 * Property: whatever bad arguments an agent sends to any tool over MCP, the answer is
 * a tool error with a stable code, the server keeps answering, and nothing is stored.
 */
import { join } from 'node:path';
import { countObservations, countSessions, countTasks, openStore } from '@swarm/storage';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Server, startServer, tempDir } from './_harness';

type JsonSchema = { type?: string; properties?: Record<string, JsonSchema>; required?: string[]; enum?: unknown[] };

/** A JSON value whose type differs from the schema's, so it can never validate. */
function wrongTypeFor(schema: JsonSchema): fc.Arbitrary<unknown> {
  const all: Array<[string, fc.Arbitrary<unknown>]> = [
    ['string', fc.string({ maxLength: 20 })],
    ['number', fc.double({ noNaN: true, noDefaultInfinity: true }).filter((n) => !Number.isInteger(n))],
    ['integer', fc.integer()],
    ['boolean', fc.boolean()],
    ['object', fc.dictionary(fc.string({ maxLength: 5 }), fc.integer(), { maxKeys: 3 })],
    ['array', fc.array(fc.integer(), { maxLength: 3 })],
    ['null', fc.constant(null)],
  ];
  const type = schema.type;
  const excluded = new Set([type, ...(type === 'number' ? ['integer'] : []), ...(type === 'integer' ? [] : [])]);
  if (schema.enum)
    return fc.oneof(fc.constant('definitely-not-an-option'), ...all.filter(([t]) => t !== 'string').map(([, a]) => a));
  return fc.oneof(...all.filter(([t]) => !excluded.has(t)).map(([, a]) => a));
}

function badArguments(schema: JsonSchema, example: Record<string, unknown>): fc.Arbitrary<Record<string, unknown>> {
  const props = Object.entries(schema.properties ?? {});
  const required = schema.required ?? [];
  const mutations: Array<fc.Arbitrary<Record<string, unknown>>> = [
    // An argument of the wrong type.
    fc
      .constantFrom(...props)
      .chain(([name, prop]) => wrongTypeFor(prop).map((value) => ({ ...example, [name]: value }))),
    // An argument of the wrong type beside one the tool does not have (which alone is ignored).
    fc
      .tuple(
        fc.constantFrom(...props),
        fc
          .string({ minLength: 1, maxLength: 12 })
          .filter((k) => !(k in (schema.properties ?? {})) && k !== '__proto__'),
      )
      .chain(([[name, prop], key]) => wrongTypeFor(prop).map((value) => ({ ...example, [name]: value, [key]: 'x' }))),
  ];
  if (Object.values(example).some((v) => typeof v === 'string')) {
    // Oversize text in every string argument.
    mutations.push(
      fc.constant(
        Object.fromEntries(
          Object.entries(example).map(([k, v]) => [k, typeof v === 'string' ? 'x'.repeat(70_000) : v]),
        ),
      ),
    );
  }
  if (required.length > 0) {
    mutations.push(
      fc.constantFrom(...required).map((name) => {
        const { [name]: _dropped, ...rest } = example;
        return rest;
      }),
    );
  }
  return fc.oneof(...mutations);
}

describe('bad arguments to every tool over MCP', () => {
  let dir: string;
  let server: Server;

  beforeAll(async () => {
    dir = tempDir();
    server = await startServer({ db: join(dir, 'colony.db'), home: dir });
    await server.call('task_thread', {
      repo_root: '/abs/repo',
      branch: 'main',
      session_id: 'sess_abc',
      agent: 'codex',
    });
  });

  afterAll(async () => {
    await server?.close();
  });

  it('answers each with a coded tool error, stores nothing, and keeps serving', async () => {
    const store = openStore({ path: join(dir, 'colony.db') });
    const counts = () => [countSessions(store), countObservations(store), countTasks(store)];
    const before = counts();
    const { tools } = await server.client.listTools();
    const examples = await import('@swarm/tools').then(
      (m) => new Map(m.COLONY_TOOLS.map((t) => [t.name, t.docs.example])),
    );
    for (const tool of tools) {
      const example = (examples.get(tool.name) ?? {}) as Record<string, unknown>;
      await fc.assert(
        fc.asyncProperty(badArguments(tool.inputSchema as JsonSchema, example), async (args) => {
          const result = await server.call(tool.name, args);
          expect(result.isError, `${tool.name} ${JSON.stringify(args).slice(0, 200)}`).toBe(true);
          expect(result.payload.code).toBe('INVALID_PARAMETERS');
          expect(result.payload.tool).toBe(tool.name);
        }),
        { numRuns: 25 },
      );
    }
    expect(counts()).toEqual(before);
    const alive = await server.call('search', { query: 'anything' });
    expect(alive.isError).toBe(false);
    store.close();
  }, 120_000);
});

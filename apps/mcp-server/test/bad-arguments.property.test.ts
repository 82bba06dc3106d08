/**
 * Property, generated from the live tools/list schemas of both toolsets: whatever bad
 * arguments an agent sends to any tool over MCP (wrong types, unknown arguments,
 * oversize text, missing fields, ids with a lone surrogate) and whatever unknown tool
 * it names, the answer is a tool error with a code from ERROR_CODES, the server keeps
 * answering, nothing is stored (no partial write), and the receipts grow by at most
 * one bounded row per call.
 */
import { join } from 'node:path';
import { countObservations, countSessions, countTasks, listReceipts, openStore } from '@swarm/storage';
import { ERROR_CODES, errorCodeOf, RECEIPT_BOUNDS } from '@swarm/tools';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Server, startServer, tempDir } from './_harness';

/** Arguments that name a caller or an id: a lone surrogate in them is refused. */
const ID_ARGUMENTS = /^(session_id|current_session_id|agent|agent_name|from_agent|to_agent|thread_id)$/;

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

function badArguments(
  schema: JsonSchema,
  example: Record<string, unknown>,
): fc.Arbitrary<Record<string, unknown>> | null {
  // Arguments typed in the schema (an untyped one, such as a JSON value, takes anything).
  const props = Object.entries(schema.properties ?? {}).filter(([, prop]) => prop.type !== undefined || prop.enum);
  const required = schema.required ?? [];
  const mutations: Array<fc.Arbitrary<Record<string, unknown>>> = [
    // An argument of the wrong type.
    ...(props.length === 0
      ? []
      : [
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
            .chain(([[name, prop], key]) =>
              wrongTypeFor(prop).map((value) => ({ ...example, [name]: value, [key]: 'x' })),
            ),
        ]),
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
  const ids = Object.entries(example).filter(([k, v]) => ID_ARGUMENTS.test(k) && typeof v === 'string');
  if (ids.length > 0) {
    // An id with a lone UTF-16 surrogate (stored mangled, it would never match again).
    mutations.push(
      fc
        .tuple(fc.constantFrom(...ids.map(([k]) => k)), fc.constantFrom('\ud800', '\udfff', 'x\ud800y', 'a\udc00'))
        .map(([k, bad]) => ({ ...example, [k]: bad })),
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
  // A tool with nothing typed, no text and nothing required takes any object: nothing to refuse.
  return mutations.length === 0 ? null : fc.oneof(...mutations);
}

/** Row count and caller-controlled text of the receipts, once deferred writes landed. */
async function receiptTotals(db: string, atLeast = 0): Promise<{ rows: number; chars: number }> {
  const store = openStore({ path: db });
  try {
    for (let i = 0; ; i++) {
      const rows = listReceipts(store, 0);
      if (rows.length >= atLeast || i >= 100) {
        const chars = rows.reduce(
          (sum, r) => sum + r.operation.length + (r.sessionId?.length ?? 0) + (r.errorMessage?.length ?? 0),
          0,
        );
        return { rows: rows.length, chars };
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  } finally {
    store.close();
  }
}

const RECEIPT_CHARS = RECEIPT_BOUNDS.name + RECEIPT_BOUNDS.sessionId + RECEIPT_BOUNDS.errorMessage;

describe.each(['all', 'framework'] as const)('bad arguments to every %s tool over MCP', (toolset) => {
  let dir: string;
  let db: string;
  let server: Server;

  beforeAll(async () => {
    dir = tempDir();
    db = join(dir, 'colony.db');
    server = await startServer({ db, home: dir, toolset });
    if (toolset === 'all') {
      await server.call('task_thread', {
        repo_root: '/abs/repo',
        branch: 'main',
        session_id: 'sess_abc',
        agent: 'codex',
      });
    } else {
      await server.call('push_context', { agent_name: 'DataCollector', key: 'k', value: 1 });
    }
  });

  afterAll(async () => {
    await server?.close();
  });

  it('answers each with a coded tool error, stores nothing, bounds receipts, and keeps serving', async () => {
    const store = openStore({ path: db });
    const counts = () => [countSessions(store), countObservations(store), countTasks(store)];
    const before = counts();
    const receiptsBefore = await receiptTotals(db, 1);
    let calls = 0;
    const { tools } = await server.client.listTools();
    const examples = await import('@swarm/tools').then(
      (m) => new Map(m.COLONY_TOOLS.map((t) => [t.name, t.docs.example])),
    );
    for (const [index, tool] of tools.entries()) {
      const example = (examples.get(tool.name) ?? {}) as Record<string, unknown>;
      const bad = badArguments(tool.inputSchema as JsonSchema, example);
      if (bad === null) continue;
      await fc.assert(
        fc.asyncProperty(bad, async (args) => {
          calls++;
          const result = await server.call(tool.name, args);
          expect(result.isError, `${tool.name} ${JSON.stringify(args).slice(0, 200)}`).toBe(true);
          const code = errorCodeOf(result.payload);
          expect(ERROR_CODES, `${tool.name} ${result.text.slice(0, 300)}`).toContain(code);
          // Contract tools refuse at the schema; seed-001 tools check agent names in the service.
          if (toolset === 'all') expect(code, result.text.slice(0, 300)).toBe('INVALID_PARAMETERS');
          expect(result.payload.tool).toBe(tool.name);
        }),
        { numRuns: 12, seed: 12_000 + index },
      );
    }
    // Unknown tools, with names up to a megabyte: a bounded refusal each.
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.string({ minLength: 1, maxLength: 40 }),
          fc.nat(1_000_000).map((n) => 'z'.repeat(n + 70)),
        ),
        async (name) => {
          fc.pre(!tools.some((t) => t.name === name));
          calls++;
          const result = await server.call(name, { session_id: 's'.repeat(1_000) });
          expect(result.isError).toBe(true);
          expect(ERROR_CODES).toContain(errorCodeOf(result.payload));
          expect(result.text.length).toBeLessThan(8_192);
        },
      ),
      { numRuns: 10, seed: 12 },
    );
    expect(counts()).toEqual(before);
    const alive = await server.call(toolset === 'all' ? 'search' : 'list_context_keys', {
      ...(toolset === 'all' ? { query: 'anything' } : { agent_name: 'DataCollector' }),
    });
    expect(alive.isError).toBe(false);
    const receiptsAfter = await receiptTotals(db, receiptsBefore.rows + calls + 1);
    expect(receiptsAfter.rows - receiptsBefore.rows).toBeLessThanOrEqual(calls + 1);
    expect(receiptsAfter.chars - receiptsBefore.chars).toBeLessThanOrEqual((calls + 1) * RECEIPT_CHARS);
    store.close();
  }, 60_000);
});

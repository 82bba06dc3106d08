/**
 * Property, generated from the live tools/list schemas of the contract, framework and
 * runtime toolsets: whatever bad arguments an agent sends to any tool over MCP (wrong
 * types, unknown arguments, oversize text, missing fields, ids with a lone surrogate)
 * and whatever unknown tool it names, the answer is a tool error with a code from
 * ERROR_CODES (seed-001 tools: one of the codes seed 001 documents, in its error
 * shape), the server keeps answering, no table of the store changes (no partial write:
 * threads, mesh context and messages, the work queue, write proposals, shared context,
 * swarm runs...), the runtime tools run nothing (served with --allow-exec: no command
 * runs, no worktree or branch appears), and the receipts grow by at most one bounded
 * row per call.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { listReceipts } from '@swarm/storage';
import { COLONY_TOOLS, ERROR_CODES, errorCodeOf, RECEIPT_BOUNDS } from '@swarm/tools';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestStore } from './_backend';
import { git, removeRepos, tempRepo } from './_git';
import { type Server, startServer, tempDir } from './_harness';
import { storeRows } from './_store-rows';

/** The error codes seed 001 documents for its tools (section Error Handling). */
const SEED_001_CODES = ['INVALID_AGENT', 'ACCESS_DENIED', 'KEY_NOT_FOUND', 'INVALID_PARAMETERS', 'TIMEOUT'];

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
  const store = await openTestStore(db);
  try {
    for (let i = 0; ; i++) {
      const rows = await listReceipts(store, 0);
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
    await store.close();
  }
}

const RECEIPT_CHARS = RECEIPT_BOUNDS.name + RECEIPT_BOUNDS.sessionId + RECEIPT_BOUNDS.errorMessage;

/**
 * Every table's rows, in order: what a partial write would change. Left out is what a
 * call's receipt keeps up to date, refused or not: the receipts (bounded below), the
 * heartbeat of the calling session (a call is a sign of life), exact token counts of
 * stored observations (refined after the answer), and the vector caches (filled by the
 * idle backfill from observations already stored).
 */
const RECEIPT_BOOKKEEPING: Record<string, readonly string[] | 'table'> = {
  mcp_metrics: 'table',
  observation_vectors: 'table',
  task_vectors: 'table',
  sessions: ['last_heartbeat_at'],
  observations: ['token_count'],
};

async function storeSnapshot(db: string): Promise<Record<string, string>> {
  const snapshot: Record<string, string> = {};
  for (const [table, rows] of Object.entries(await storeRows(db))) {
    const skipped = RECEIPT_BOOKKEEPING[table] ?? [];
    if (skipped === 'table') continue;
    for (const row of rows) for (const column of skipped) delete row[column];
    snapshot[table] = JSON.stringify(rows);
  }
  return snapshot;
}

/** Replaces, deep in an example, every string `from` maps and every command with `command`. */
function rewrite(value: unknown, from: Map<string, string>, command: string): unknown {
  if (typeof value === 'string') return from.get(value) ?? value;
  if (Array.isArray(value)) return value.map((v) => rewrite(v, from, command));
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [
      k,
      k === 'command' || k === 'commands'
        ? Array.isArray(v)
          ? v.map(() => command)
          : command
        : rewrite(v, from, command),
    ]),
  );
}

interface Fixture {
  readonly server: Server;
  readonly db: string;
  /** The examples of the tools, as this fixture's server can run them. */
  readonly example: (tool: string) => Record<string, unknown>;
  /** What must hold after the calls beside an unchanged store (the runtime ran nothing). */
  readonly ranNothing: () => void;
  readonly alive: () => Promise<boolean>;
}

const SETUPS: Record<'all' | 'framework' | 'runtime', (dir: string, db: string) => Promise<Fixture>> = {
  async all(dir, db) {
    const server = await startServer({ db, home: dir, toolset: 'all' });
    await server.call('task_thread', {
      repo_root: '/abs/repo',
      branch: 'main',
      session_id: 'sess_abc',
      agent: 'codex',
    });
    return {
      server,
      db,
      example: exampleOf,
      ranNothing: () => {},
      alive: async () => !(await server.call('search', { query: 'anything' })).isError,
    };
  },
  async framework(dir, db) {
    const server = await startServer({ db, home: dir, toolset: 'framework' });
    // One row in each framework family, so a stray update would show, not only an insert.
    const seeded = [
      await server.call('push_context', { agent_name: 'DataCollector', key: 'k', value: 1 }),
      await server.call('send_message_to_agent', { from_agent: 'DataCollector', to_agent: 'Analyzer', message: 'hi' }),
      await server.call('ctx_put', { agent: 'a', key: 'k', value: 1 }),
      await server.call('coord_enqueue', { agent: 'a', kind: 'job', payload: { n: 1 } }),
      await server.call('fs_write', { agent: 'Claude', repo_root: dir, path: 'notes.md', content: 'x' }),
    ];
    for (const r of seeded) if (r.isError) throw new Error(r.text);
    return {
      server,
      db,
      example: exampleOf,
      ranNothing: () => {},
      alive: async () => !(await server.call('list_context_keys', { agent_name: 'DataCollector' })).isError,
    };
  },
  async runtime(dir, db) {
    const repo = tempRepo();
    const server = await startServer({ db, home: dir, toolset: 'runtime', flags: ['--allow-exec'] });
    const forked = await server.call('workspace_fork', { repo_root: repo, count: 2 });
    if (forked.isError) throw new Error(forked.text);
    const [one, two] = forked.payload.workspaces.map((w: { workspace_id: string }) => w.workspace_id);
    const marker = join(dir, 'ran');
    const from = new Map([
      ['/abs/repo', repo],
      ['ws-1', one],
      ['ws-2', two],
    ]);
    const state = () => ({
      worktrees: git(repo, 'worktree', 'list', '--porcelain'),
      branches: git(repo, 'branch', '--list', '--all'),
      files: readdirSync(repo).sort(),
    });
    const before = state();
    return {
      server,
      db,
      example: (tool) => rewrite(exampleOf(tool), from, `touch ${marker}`) as Record<string, unknown>,
      ranNothing: () => {
        expect(existsSync(marker)).toBe(false);
        expect(state()).toEqual(before);
      },
      alive: async () => !(await server.call('workspace_list', { repo_root: repo })).isError,
    };
  },
};

const exampleOf = (tool: string) =>
  (COLONY_TOOLS.find((t) => t.name === tool)?.docs.example ?? {}) as Record<string, unknown>;

describe.each(['all', 'framework', 'runtime'] as const)('bad arguments to every %s tool over MCP', (toolset) => {
  let fixture: Fixture;

  beforeAll(async () => {
    const dir = tempDir();
    fixture = await SETUPS[toolset](dir, join(dir, 'colony.db'));
  }, 60_000);

  afterAll(async () => {
    await fixture?.server.close();
    removeRepos();
  });

  it('answers each with a coded tool error, writes and runs nothing, bounds receipts, and keeps serving', async () => {
    const { server, db } = fixture;
    const before = await storeSnapshot(db);
    const receiptsBefore = await receiptTotals(db, 1);
    let calls = 0;
    const { tools } = await server.client.listTools();
    const seed001 = new Set(COLONY_TOOLS.filter((t) => t.errorFormat === 'syntha').map((t) => t.name));
    for (const [index, tool] of tools.entries()) {
      const bad = badArguments(tool.inputSchema as JsonSchema, fixture.example(tool.name));
      if (bad === null) continue;
      await fc.assert(
        fc.asyncProperty(bad, async (args) => {
          calls++;
          const result = await server.call(tool.name, args);
          const shown = `${tool.name} ${JSON.stringify(args).slice(0, 200)} -> ${result.text.slice(0, 300)}`;
          expect(result.isError, shown).toBe(true);
          const code = errorCodeOf(result.payload);
          expect(ERROR_CODES, shown).toContain(code);
          if (seed001.has(tool.name)) {
            // Seed 001's error shape, with one of the codes it documents.
            expect(SEED_001_CODES, shown).toContain(code);
            expect(result.payload, shown).toMatchObject({ success: false, error_code: code, tool: tool.name });
            expect(typeof result.payload.timestamp, shown).toBe('string');
          } else {
            // Contract, seed-000 and runtime tools refuse bad arguments at the schema.
            expect(code, shown).toBe('INVALID_PARAMETERS');
            expect(result.payload.tool).toBe(tool.name);
          }
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
    expect(await storeSnapshot(db)).toEqual(before);
    fixture.ranNothing();
    expect(await fixture.alive()).toBe(true);
    const receiptsAfter = await receiptTotals(db, receiptsBefore.rows + calls + 1);
    expect(receiptsAfter.rows - receiptsBefore.rows).toBeLessThanOrEqual(calls + 1);
    expect(receiptsAfter.chars - receiptsBefore.chars).toBeLessThanOrEqual((calls + 1) * RECEIPT_CHARS);
  }, 120_000);
});

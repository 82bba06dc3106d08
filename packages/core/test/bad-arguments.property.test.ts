/**
 * Bad input never crashes and never half-writes (ARCHITECTURE.md principle 6), for
 * EVERY tool the registry serves. Arguments invalid for a tool's schema (a wrong type
 * for any declared field, a missing required field (alone or beside an unknown key), an
 * oversize string, or no object at all) must answer ok:false with a code from
 * ERROR_CODES, never throw, and leave sessions, observations and tasks untouched.
 * Fields and types are read from each tool's own JSON Schema, so a new tool is
 * covered without touching this file.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inputJsonSchema, MAX_CONTENT_CHARS, type Tool } from '@swarm/tools';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Colony, ERROR_CODES, manualClock, openColony } from '../src/index';

const RUNS = 50;
const OVERSIZE = 'x'.repeat(MAX_CONTENT_CHARS + 1);

type JsonSchema = Record<string, unknown>;

interface Field {
  readonly name: string;
  readonly types: readonly string[];
  readonly itemTypes: readonly string[];
  readonly required: boolean;
}

function typesOf(schema: JsonSchema | undefined): string[] {
  if (!schema) return [];
  if (Array.isArray(schema.anyOf)) return (schema.anyOf as JsonSchema[]).flatMap(typesOf);
  if (Array.isArray(schema.type)) return schema.type as string[];
  if (typeof schema.type === 'string') return [schema.type];
  if (Array.isArray(schema.enum)) return [...new Set((schema.enum as unknown[]).map((v) => typeof v))];
  return [];
}

function fieldsOf(tool: Tool<never>): Field[] {
  const schema = inputJsonSchema(tool);
  const required = new Set((schema.required as string[] | undefined) ?? []);
  return Object.entries((schema.properties ?? {}) as Record<string, JsonSchema>).map(([name, prop]) => ({
    name,
    types: typesOf(prop),
    itemTypes: typesOf(prop.items as JsonSchema | undefined),
    required: required.has(name),
  }));
}

/** Values of every JSON kind the declared types do not accept. */
function wrongValue(types: readonly string[]): fc.Arbitrary<unknown> {
  const accepts = (t: string) => types.includes(t);
  const options: fc.Arbitrary<unknown>[] = [];
  if (!accepts('string')) options.push(fc.string({ maxLength: 20 }));
  if (!accepts('integer') && !accepts('number')) options.push(fc.integer());
  if (!accepts('number')) options.push(fc.double().filter((d) => !Number.isInteger(d)));
  if (!accepts('boolean')) options.push(fc.boolean());
  if (!accepts('null')) options.push(fc.constant(null));
  if (!accepts('array')) options.push(fc.array(fc.anything(), { maxLength: 3 }));
  if (!accepts('object')) options.push(fc.dictionary(fc.string({ maxLength: 8 }), fc.anything(), { maxKeys: 3 }));
  return fc.oneof(...options);
}

const nonObject = fc.oneof(
  fc.array(fc.anything(), { maxLength: 4 }),
  fc.string({ maxLength: 20 }),
  fc.constant(null),
  fc.integer(),
  fc.double(),
  fc.boolean(),
);

interface Case {
  readonly label: string;
  readonly args: unknown;
  /** The field the error must name, when one field is to blame. */
  readonly field?: string;
}

function invalidCases(tool: Tool<never>): fc.Arbitrary<Case> {
  const fields = fieldsOf(tool);
  const example = tool.docs.example;
  const names = new Set(fields.map((f) => f.name));
  const arbitraries: fc.Arbitrary<Case>[] = [];

  // A wrong type for any declared field (and wrong item types for arrays).
  for (const field of fields) {
    arbitraries.push(
      wrongValue(field.types).map((value) => ({
        label: `wrong type for ${field.name}`,
        args: { ...example, [field.name]: value },
        field: field.name,
      })),
    );
    if (field.itemTypes.length > 0) {
      arbitraries.push(
        fc.array(wrongValue(field.itemTypes), { minLength: 1, maxLength: 3 }).map((items) => ({
          label: `wrong item type for ${field.name}`,
          args: { ...example, [field.name]: items },
          field: field.name,
        })),
      );
    }
  }

  // Missing required fields: any non-empty subset of them.
  const required = fields.filter((f) => f.required).map((f) => f.name);
  if (required.length > 0) {
    arbitraries.push(
      fc.subarray(required, { minLength: 1 }).map((drop) => ({
        label: `missing ${drop.join(', ')}`,
        args: Object.fromEntries(Object.entries(example).filter(([k]) => !drop.includes(k))),
        ...(drop.length === 1 ? { field: drop[0] } : {}),
      })),
    );
  }

  // An unknown extra key (ignored on its own, see tool-registry) beside a missing required
  // field: still refused, naming only the real problem. (`__proto__` would set the prototype.)
  if (required.length > 0) {
    arbitraries.push(
      fc
        .tuple(
          fc.string({ minLength: 1, maxLength: 16 }).filter((k) => !names.has(k) && k !== '__proto__'),
          fc.anything(),
        )
        .map(([key, value]) => ({
          label: `extra key ${JSON.stringify(key)} without ${required[0]}`,
          args: Object.fromEntries([...Object.entries(example).filter(([k]) => k !== required[0]), [key, value]]),
          field: required[0],
        })),
    );
  }

  // No object at all.
  arbitraries.push(nonObject.map((args) => ({ label: `non-object ${typeof args}`, args })));

  return fc.oneof(...arbitraries);
}

/** Oversize strings: one past the content cap, for every string field (every cap is at most that). */
function oversizeCases(tool: Tool<never>): Case[] {
  return fieldsOf(tool)
    .filter((f) => f.types.includes('string'))
    .map((f) => ({ label: `oversize ${f.name}`, args: { ...tool.docs.example, [f.name]: OVERSIZE }, field: f.name }));
}

describe('bad arguments, for every tool', () => {
  // Opened while collecting, so one `it` per tool comes from this colony's own registry.
  const home = mkdtempSync(join(tmpdir(), 'colony-bad-args-'));
  const colony: Colony = openColony({ home, clock: manualClock() });
  const rows = async () => {
    const { sessions, observations, tasks } = await colony.status();
    return { sessions, observations, tasks };
  };
  let before: Awaited<ReturnType<typeof rows>>;

  beforeAll(async () => {
    // Real state the docs examples point at, so a call that slipped through would write.
    const opened = await colony.handleToolCall('task_thread', {
      repo_root: '/abs/repo',
      branch: 'agent/codex/live-task',
      session_id: 'sess_abc',
      agent: 'codex',
    });
    expect(opened.ok).toBe(true);
    before = await rows();
    expect(before).toEqual({ sessions: 1, observations: 1, tasks: 1 });
  });

  afterAll(async () => {
    await colony.close();
    rmSync(home, { recursive: true, force: true });
  });

  async function expectRefused(tool: Tool<never>, c: Case): Promise<void> {
    let outcome: Awaited<ReturnType<Colony['handleToolCall']>>;
    try {
      outcome = await colony.handleToolCall(tool.name, c.args);
    } catch (error) {
      throw new Error(`${tool.name} threw on ${c.label}: ${String(error)}`);
    }
    if (outcome.ok) throw new Error(`${tool.name} accepted ${c.label}: ${JSON.stringify(c.args).slice(0, 300)}`);
    expect(ERROR_CODES).toContain(outcome.error.code);
    expect(outcome.error.code, c.label).toBe('INVALID_PARAMETERS');
    expect(outcome.error.tool).toBe(tool.name);
    if (c.field !== undefined) expect(outcome.error.fields, c.label).toContain(c.field);
  }

  it('the examples themselves are accepted, so every case below differs from a valid call only by its fault', () => {
    for (const tool of colony.registry.list()) {
      expect(tool.input.safeParse(tool.docs.example).success, tool.name).toBe(true);
    }
  });

  it('covers every tool of the registry', () => {
    expect(colony.registry.list().length).toBeGreaterThanOrEqual(11);
  });

  for (const tool of colony.registry.list() as Tool<never>[]) {
    it(`${tool.name}: refuses invalid arguments without throwing or writing`, async () => {
      await fc.assert(
        fc.asyncProperty(invalidCases(tool), (c) => expectRefused(tool, c)),
        { numRuns: RUNS },
      );
      for (const c of oversizeCases(tool)) await expectRefused(tool, c);
      expect(await rows()).toEqual(before);
    });
  }

  it('left sessions, observations and tasks exactly as they were', async () => {
    expect(await rows()).toEqual(before);
  });
});

/**
 * The registry: validation naming every bad field, one error shape, internal errors
 * contained, receipts for every call, and idempotency only where it belongs.
 */
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import {
  type CallReceipt,
  ColonyError,
  clip,
  defineTool,
  ERROR_CODES,
  hashArgs,
  parseArgs,
  RECEIPT_BOUNDS,
  type RegistryCallbacks,
  type ToolCallOutcome,
  ToolRegistry,
} from '../src/index';

const NOW = Date.UTC(2026, 0, 2, 3, 4, 5);

interface FakeBackend {
  readonly calls: string[];
}

const echo = defineTool({
  name: 'echo',
  title: 'echo',
  description: 'Echo the arguments.',
  input: z.strictObject({
    text: z.string().max(5),
    times: z.int().min(1).default(1),
    session_id: z.string().optional(),
  }),
  core: true,
  mutates: false,
  docs: { returns: 'the arguments', example: { text: 'hi' } },
  handler: (args, b: FakeBackend) => {
    b.calls.push('echo');
    return { echoed: args.text.repeat(args.times) };
  },
});

const write = defineTool({
  name: 'write_thing',
  title: 'write_thing',
  description: 'Write a thing.',
  input: z.strictObject({ value: z.string(), current_session_id: z.string().optional() }),
  mutates: true,
  hints: { destructive: false, idempotent: false },
  docs: { returns: '{ written }', example: { value: 'x' } },
  handler: (args, b: FakeBackend) => {
    b.calls.push(`write:${args.value}`);
    return { written: args.value };
  },
});

const boom = defineTool({
  name: 'boom',
  title: 'boom',
  description: 'Throws a plain Error.',
  input: z.strictObject({}),
  mutates: false,
  docs: { returns: 'never', example: {} },
  handler: () => {
    throw new Error('kaboom');
  },
});

const refuse = defineTool({
  name: 'refuse',
  title: 'refuse',
  description: 'Throws a ColonyError.',
  input: z.strictObject({ session_id: z.string() }),
  mutates: false,
  docs: { returns: 'never', example: { session_id: 's' } },
  handler: (args) => {
    throw new ColonyError('TASK_NOT_FOUND', 'task 9 not found', {
      details: { task_id: 9, session_id: args.session_id },
    });
  },
});

const nothing = defineTool({
  name: 'nothing',
  title: 'nothing',
  description: 'Returns undefined.',
  input: z.strictObject({}),
  mutates: false,
  docs: { returns: 'null', example: {} },
  handler: () => undefined,
});

function setup(hooks: Partial<RegistryCallbacks> = {}) {
  const backend: FakeBackend = { calls: [] };
  const receipts: CallReceipt[] = [];
  const internal: Array<{ error: unknown; tool: string }> = [];
  const registry = new ToolRegistry([echo, write, boom, refuse, nothing], backend, {
    now: () => NOW,
    recordReceipt: (r) => receipts.push(r),
    onInternalError: (error, tool) => internal.push({ error, tool }),
    ...hooks,
  });
  return { registry, backend, receipts, internal };
}

function expectError(outcome: ToolCallOutcome) {
  if (outcome.ok) throw new Error(`expected an error, got ${outcome.text}`);
  return outcome.error;
}

describe('ToolRegistry.call', () => {
  it('answers a value and its JSON text for a valid call, defaults applied', async () => {
    const { registry, backend } = setup();
    const outcome = await registry.call('echo', { text: 'ab', times: 2 });
    expect(outcome).toEqual({ ok: true, value: { echoed: 'abab' }, text: '{"echoed":"abab"}' });
    expect(await registry.call('echo', { text: 'ab' })).toMatchObject({ ok: true, value: { echoed: 'ab' } });
    expect(backend.calls).toEqual(['echo', 'echo']);
  });

  it('answers null (never undefined) when a handler returns nothing', async () => {
    const { registry } = setup();
    expect(await registry.call('nothing', {})).toEqual({ ok: true, value: null, text: 'null' });
  });

  it('names every bad field in `fields` and in the message, and never runs the handler', async () => {
    const { registry, backend } = setup();
    const error = expectError(await registry.call('echo', { text: 42, times: 0 }));
    expect(error.code).toBe('INVALID_PARAMETERS');
    expect(error.fields).toEqual(['text', 'times']);
    expect(error.error).toMatch(/text:/);
    expect(error.error).toMatch(/times:/);
    expect(backend.calls).toEqual([]);
  });

  it('serves a call with undeclared keys, ignoring them and naming them in ignored_arguments', async () => {
    const { registry, backend } = setup();
    const outcome = await registry.call('echo', { text: 'ok', size: 3, colour: 'red' });
    expect(outcome).toMatchObject({
      ok: true,
      value: { echoed: 'ok', ignored_arguments: ['colour', 'size'] },
      ignoredArguments: ['colour', 'size'],
    });
    expect(backend.calls).toEqual(['echo']);
    const plain = await registry.call('echo', { text: 'ok' });
    expect(plain).toEqual({ ok: true, value: { echoed: 'ok' }, text: '{"echoed":"ok"}' });
  });

  it('still refuses a wrong type beside an undeclared key, naming only the real problem', async () => {
    const { registry, backend } = setup();
    const error = expectError(await registry.call('echo', { text: 42, colour: 'red' }));
    expect(error.code).toBe('INVALID_PARAMETERS');
    expect(error.fields).toEqual(['text']);
    expect(backend.calls).toEqual([]);
  });

  it('rejects a missing required field and a bound broken', async () => {
    const { registry } = setup();
    expect(expectError(await registry.call('echo', {})).fields).toEqual(['text']);
    const tooLong = expectError(await registry.call('echo', { text: 'too long' }));
    expect(tooLong.fields).toEqual(['text']);
  });

  it.each([
    ['an array', [1, 2]],
    ['a string', 'text'],
    ['a number', 7],
    ['null', null],
    ['a boolean', true],
  ])('rejects %s as arguments with INVALID_PARAMETERS', async (_label, args) => {
    const { registry } = setup();
    // `nothing` takes no arguments at all: only a non-object can make its call invalid.
    expect(expectError(await registry.call('nothing', args)).code).toBe('INVALID_PARAMETERS');
    expect(expectError(await registry.call('echo', args)).code).toBe('INVALID_PARAMETERS');
  });

  it('reads absent arguments as an empty object', async () => {
    const { registry } = setup();
    expect((await registry.call('nothing', undefined)).ok).toBe(true);
  });

  it('answers UNKNOWN_TOOL with the available tools, and hides non-core tools from the core toolset', async () => {
    const { registry } = setup();
    const error = expectError(await registry.call('nope', {}));
    expect(error).toMatchObject({ code: 'UNKNOWN_TOOL', tool: 'nope' });
    expect(error.available).toEqual(['echo', 'write_thing', 'boom', 'refuse', 'nothing']);
    const core = expectError(await registry.call('write_thing', { value: 'x' }, { toolset: 'core' }));
    expect(core.code).toBe('UNKNOWN_TOOL');
    expect(core.available).toEqual(['echo']);
  });

  it('turns a plain Error into INTERNAL_ERROR and reports it to onInternalError', async () => {
    const { registry, internal } = setup();
    const error = expectError(await registry.call('boom', {}));
    expect(error.code).toBe('INTERNAL_ERROR');
    expect(error.error).toContain('kaboom');
    expect(internal).toHaveLength(1);
    expect(internal[0]?.tool).toBe('boom');
    expect((internal[0]!.error as Error).message).toBe('kaboom');
  });

  it('passes a ColonyError through with its code and details, without reporting it', async () => {
    const { registry, internal } = setup();
    const outcome = await registry.call('refuse', { session_id: 's1' });
    const error = expectError(outcome);
    expect(error).toEqual({
      code: 'TASK_NOT_FOUND',
      error: 'task 9 not found',
      tool: 'refuse',
      timestamp: new Date(NOW).toISOString(),
      task_id: 9,
      session_id: 's1',
    });
    expect(JSON.parse(outcome.text)).toEqual(error);
    expect(internal).toEqual([]);
  });

  it('answers every failure with a code from ERROR_CODES', async () => {
    const { registry } = setup();
    const outcomes = await Promise.all([
      registry.call('nope', {}),
      registry.call('echo', { bad: 1 }),
      registry.call('boom', {}),
      registry.call('refuse', { session_id: 's' }),
    ]);
    for (const o of outcomes) expect(ERROR_CODES).toContain(expectError(o).code);
  });
});

describe('receipts', () => {
  it('records one receipt per call, ok or not, with the caller session', async () => {
    const { registry, receipts } = setup();
    await registry.call('echo', { text: 'hi', session_id: 'sess-1' });
    await registry.call('write_thing', { value: 'v', current_session_id: 'sess-2' });
    await registry.call('refuse', { session_id: 'sess-3' });
    await registry.call('echo', { text: 'way too long' });
    await registry.call('nope', 'not an object');

    expect(receipts.map((r) => [r.operation, r.sessionId, r.ok, r.errorCode])).toEqual([
      ['echo', 'sess-1', true, null],
      ['write_thing', 'sess-2', true, null],
      ['refuse', 'sess-3', false, 'TASK_NOT_FOUND'],
      ['echo', null, false, 'INVALID_PARAMETERS'],
      ['nope', null, false, 'UNKNOWN_TOOL'],
    ]);
    const [first, , refused] = receipts;
    expect(first).toMatchObject({
      ts: NOW,
      inputText: '{"text":"hi","session_id":"sess-1"}',
      outputText: '{"echoed":"hi"}',
      errorMessage: null,
    });
    expect(first!.durationMs).toBeGreaterThanOrEqual(0);
    expect(refused?.errorMessage).toBe('task 9 not found');
    expect(JSON.parse(refused!.outputText).code).toBe('TASK_NOT_FOUND');
  });

  it('prefers session_id over current_session_id and ignores non-string ids', async () => {
    const { registry, receipts } = setup();
    await registry.call('echo', { text: 'a', session_id: 'primary', current_session_id: 'secondary' });
    await registry.call('echo', { text: 'a', session_id: 12 });
    expect(receipts.map((r) => r.sessionId)).toEqual(['primary', null]);
  });

  it('never fails a call because its receipt could not be written', async () => {
    const failure = new Error('disk full');
    const { registry, internal } = setup({
      recordReceipt: () => {
        throw failure;
      },
    });
    expect(await registry.call('echo', { text: 'ok' })).toMatchObject({ ok: true });
    expect(internal).toEqual([{ error: failure, tool: 'echo' }]);
  });
});

describe('idempotency hook', () => {
  function withHook() {
    const idempotent = vi.fn(<T>(_tool: string, _key: string, _hash: string, fn: () => T): T => fn());
    return { ...setup({ idempotent: idempotent as RegistryCallbacks['idempotent'] }), idempotent };
  }

  it('wraps a mutating call that carries a key, hashing the arguments without the key', async () => {
    const { registry, idempotent, backend } = withHook();
    const outcome = await registry.call('write_thing', { value: 'v', idempotency_key: 'k-1' });
    expect(outcome).toMatchObject({ ok: true, value: { written: 'v' } });
    expect(idempotent).toHaveBeenCalledTimes(1);
    expect(idempotent.mock.calls[0]?.slice(0, 3)).toEqual(['write_thing', 'k-1', hashArgs({ value: 'v' })]);
    expect(backend.calls).toEqual(['write:v']);
  });

  it('is not used for a mutating call without a key, nor for a read', async () => {
    const { registry, idempotent } = withHook();
    await registry.call('write_thing', { value: 'v' });
    await registry.call('echo', { text: 'hi' });
    expect(idempotent).not.toHaveBeenCalled();
  });

  it('accepts idempotency_key only on mutating tools (a read ignores it)', async () => {
    const { registry, idempotent } = withHook();
    expect(await registry.call('echo', { text: 'hi', idempotency_key: 'k' })).toMatchObject({
      ok: true,
      ignoredArguments: ['idempotency_key'],
    });
    expect(idempotent).not.toHaveBeenCalled();
    expect(expectError(await registry.call('write_thing', { value: 'v', idempotency_key: '' })).fields).toEqual([
      'idempotency_key',
    ]);
  });

  it('returns what the hook returns (a stored first result) without running the handler', async () => {
    const { registry, backend } = setup({ idempotent: <T>() => ({ written: 'from before' }) as T });
    expect(await registry.call('write_thing', { value: 'v', idempotency_key: 'k' })).toMatchObject({
      ok: true,
      value: { written: 'from before' },
    });
    expect(backend.calls).toEqual([]);
  });
});

describe('hashArgs', () => {
  it('does not depend on key order, at any depth', () => {
    expect(hashArgs({ a: 1, b: { c: [1, { d: 2, e: 3 }], f: 'x' } })).toBe(
      hashArgs({ b: { f: 'x', c: [1, { e: 3, d: 2 }] }, a: 1 }),
    );
  });

  it('ignores undefined values but not nulls', () => {
    expect(hashArgs({ a: 1, b: undefined })).toBe(hashArgs({ a: 1 }));
    expect(hashArgs({ a: 1, b: null })).not.toBe(hashArgs({ a: 1 }));
  });

  it('differs when any value, or array order, differs', () => {
    expect(hashArgs({ a: 1 })).not.toBe(hashArgs({ a: 2 }));
    expect(hashArgs({ a: '1' })).not.toBe(hashArgs({ a: 1 }));
    expect(hashArgs({ a: [1, 2] })).not.toBe(hashArgs({ a: [2, 1] }));
    expect(hashArgs({ a: { b: 1 } })).not.toBe(hashArgs({ 'a.b': 1 }));
    expect(hashArgs({})).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('parseArgs and defineTool', () => {
  it('returns the parsed arguments with defaults applied', () => {
    expect(parseArgs(echo.input, { text: 'x' })).toEqual({ text: 'x', times: 1 });
  });

  it('throws a ColonyError carrying the fields', () => {
    try {
      parseArgs(echo.input, { text: 1 });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ColonyError);
      expect((error as ColonyError).details).toEqual({ fields: ['text'] });
    }
  });

  it('refuses invalid tool names and duplicate tools', () => {
    expect(() =>
      defineTool({
        name: 'Bad-Name',
        title: 'Bad-Name',
        description: '',
        input: z.strictObject({}),
        mutates: false,
        docs: { returns: '', example: {} },
        handler: () => null,
      }),
    ).toThrow(/invalid tool name/);
    expect(() => new ToolRegistry([echo, echo], { calls: [] }, { now: () => 0 })).toThrow(/defined twice/);
  });
});

describe('bounds and store constraints (issue 12)', () => {
  const constraint = defineTool({
    name: 'constraint',
    title: 'constraint',
    description: 'Throws what better-sqlite3 throws on a foreign key failure.',
    input: z.strictObject({}),
    mutates: false,
    docs: { returns: 'never', example: {} },
    handler: () => {
      throw Object.assign(new Error('FOREIGN KEY constraint failed'), { code: 'SQLITE_CONSTRAINT_FOREIGNKEY' });
    },
  });
  const loud = defineTool({
    name: 'loud',
    title: 'loud',
    description: 'Refuses with a huge message and field list.',
    input: z.strictObject({}),
    mutates: false,
    docs: { returns: 'never', example: {} },
    handler: () => {
      throw new ColonyError('INVALID_PARAMETERS', 'y'.repeat(100_000), {
        details: { fields: Array.from({ length: 100 }, (_, i) => `${i}${'f'.repeat(10_000)}`) },
      });
    },
  });

  function bounded() {
    const receipts: CallReceipt[] = [];
    const internal: unknown[] = [];
    const registry = new ToolRegistry(
      [constraint, loud],
      {},
      {
        now: () => NOW,
        recordReceipt: (r) => receipts.push(r),
        onInternalError: (error) => internal.push(error),
      },
    );
    return { registry, receipts, internal };
  }

  it('answers a store constraint failure as INVALID_PARAMETERS, never INTERNAL_ERROR', async () => {
    const { registry, internal } = bounded();
    const error = expectError(await registry.call('constraint', {}));
    expect(error.code).toBe('INVALID_PARAMETERS');
    expect(error.constraint).toBe('SQLITE_CONSTRAINT_FOREIGNKEY');
    expect(internal).toEqual([]);
  });

  it('bounds what an unknown tool name echoes and what its receipt keeps', async () => {
    const { registry, receipts } = bounded();
    const outcome = await registry.call('n'.repeat(5_000_000), { session_id: 's'.repeat(10_000) });
    expect(outcome.text.length).toBeLessThan(2_000);
    expect(expectError(outcome).tool).toHaveLength(RECEIPT_BOUNDS.name);
    expect(receipts[0]!.operation).toHaveLength(RECEIPT_BOUNDS.name);
    expect(receipts[0]!.sessionId).toHaveLength(RECEIPT_BOUNDS.sessionId);
  });

  it('bounds a refusal message and its listed fields', async () => {
    const { registry, receipts } = bounded();
    const error = expectError(await registry.call('loud', {}));
    expect(error.error.length).toBe(RECEIPT_BOUNDS.errorMessage);
    expect(error.fields).toHaveLength(RECEIPT_BOUNDS.fields);
    for (const field of error.fields as string[]) expect(field.length).toBeLessThanOrEqual(RECEIPT_BOUNDS.field);
    expect(receipts[0]!.errorMessage!.length).toBe(RECEIPT_BOUNDS.errorMessage);
  });

  it('never cuts a surrogate pair in half', () => {
    expect(clip('ab😀cd', 4)).toBe('ab…');
    expect(clip('abc', 4)).toBe('abc');
  });
});

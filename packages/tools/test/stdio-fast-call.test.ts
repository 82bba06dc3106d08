/**
 * The stdio front's tools/call fast path answers byte for byte as the SDK server does:
 * the same lines, in the same order, for an ok call, a tool error, an unknown tool, bad
 * arguments, a call that throws, every malformed tools/call (those are the SDK's), an
 * oversize line and a cancelled call; and `fastPath: false` leaves every call to the SDK.
 */
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ToolRegistry } from '../src/index';
import { FastCalls } from '../src/mcp/_fast-call';
import { mcpHandshake } from '../src/mcp/index';
import { type StdioOptions, serveStdio } from '../src/mcp/stdio';
import { echoTool, initialized, initializeRequest } from './_stdio-fixtures';

const echo = echoTool((text) => {
  if (text === 'fail') throw new Error('echo refuses "fail"');
});
const registry = new ToolRegistry([echo], {}, { now: () => 0 });
const handshake = await mcpHandshake(registry);

/** A source over the registry where `boom` throws (a bug) and `slow` waits for `release`. */
function source() {
  let release!: () => void;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  const registrySource: StdioOptions['registry'] = {
    list: registry.list.bind(registry),
    async call(name, args, options) {
      if (name === 'boom') throw Object.assign(new Error('exploded'), { code: -32001, data: { at: 'boom' } });
      if (name === 'boom2') throw new Error('plain');
      if (name === 'slow') await released;
      return registry.call(name === 'slow' ? 'echo' : name, args, options);
    },
  };
  return { registry: registrySource, release };
}

async function start(fastPath: boolean) {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const lines: string[] = [];
  let wake: (() => void) | undefined;
  let pending = '';
  stdout.on('data', (chunk: Buffer) => {
    pending += chunk.toString();
    for (let n = pending.indexOf('\n'); n !== -1; n = pending.indexOf('\n')) {
      lines.push(pending.slice(0, n));
      pending = pending.slice(n + 1);
    }
    wake?.();
  });
  const { registry: from, release } = source();
  const handle = await serveStdio({
    registry: from,
    toolset: 'all',
    version: '1.0.0',
    stdin,
    stdout,
    handshake,
    fastPath,
    maxLineBytes: 4_000,
    now: () => 0,
  });
  const until = async (count: number) => {
    const deadline = Date.now() + 5_000;
    while (lines.length < count && Date.now() < deadline) {
      await new Promise<void>((resolve) => {
        wake = resolve;
        setTimeout(resolve, 50);
      });
    }
    return lines;
  };
  return { handle, lines, release, until, raw: (text: string) => stdin.write(text) };
}

const initialize = initializeRequest(0);
const request = (id: unknown, params: unknown, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params, ...extra });

/** Lines a client may send, each answered once; the malformed ones are the SDK's to refuse. */
const CASES: Record<string, string> = {
  ok: request(1, { name: 'echo', arguments: { text: 'hi' } }),
  'ok, id a string': request('s-1', { name: 'echo', arguments: { text: 'hi' } }),
  'ok, progress token and other _meta': request(2, {
    name: 'echo',
    arguments: { text: 'p' },
    _meta: { progressToken: 7, 'client/x': 1 },
  }),
  'tool error': request(3, { name: 'echo', arguments: { text: 'fail' } }),
  'unknown tool': request(4, { name: 'nope', arguments: {} }),
  'bad arguments': request(5, { name: 'echo', arguments: { text: 5 } }),
  'no arguments': request(6, { name: 'echo' }),
  'call throws, code and data': request(7, { name: 'boom', arguments: {} }),
  'call throws, plain': request(8, { name: 'boom2', arguments: {} }),
  'arguments a string': request(9, { name: 'echo', arguments: 'hi' }),
  'arguments an array': request(10, { name: 'echo', arguments: ['hi'] }),
  'arguments null': request(11, { name: 'echo', arguments: null }),
  'name a number': request(12, { name: 5, arguments: {} }),
  'no params': request(13, undefined),
  'params null': request(14, null),
  'id a fraction': request(15.5, { name: 'echo', arguments: { text: 'f' } }),
  'an extra top-level key': request(16, { name: 'echo', arguments: { text: 'k' } }, { extra: true }),
  '_meta null': request(17, { name: 'echo', arguments: { text: 'm' }, _meta: null }),
  'progress token a fraction': request(18, { name: 'echo', arguments: { text: 'm' }, _meta: { progressToken: 1.5 } }),
  'task requested': request(19, { name: 'echo', arguments: { text: 't' }, task: { ttl: 10 } }),
  'related task': request(20, {
    name: 'echo',
    arguments: { text: 'r' },
    _meta: { 'io.modelcontextprotocol/related-task': { taskId: 'x' } },
  }),
  'a __proto__ argument': `{"jsonrpc":"2.0","id":21,"method":"tools/call","params":{"name":"echo","arguments":{"__proto__":{"text":"x"}}}}`,
  oversize: request(22, { name: 'echo', arguments: { text: 'x'.repeat(5_000) } }),
};

/** Sends the handshake and a tool call (the hand-over), then each case alone, and returns every answer line. */
async function exchange(fastPath: boolean, cases: string[]) {
  const io = await start(fastPath);
  io.raw(`${JSON.stringify(initialize)}\n${JSON.stringify(initialized)}\n`);
  io.raw(`${request('first', { name: 'echo', arguments: { text: 'first' } })}\n`);
  await io.until(2);
  for (const line of cases) {
    const before = io.lines.length;
    io.raw(`${line}\n`);
    await io.until(before + 1);
  }
  await io.handle.close();
  return io.lines;
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('the stdio tools/call fast path', () => {
  it('answers every case with the same bytes as the SDK server', async () => {
    const taken: unknown[] = [];
    const take = FastCalls.prototype.take;
    vi.spyOn(FastCalls.prototype, 'take').mockImplementation(function (this: FastCalls, message) {
      const result = take.call(this, message);
      if (result) taken.push((message as { id: unknown }).id);
      return result;
    });
    const lines = Object.values(CASES);
    const fast = await exchange(true, lines);
    const fastTaken = taken.splice(0);
    const sdk = await exchange(false, lines);
    expect(taken).toEqual([]); // fastPath: false never looks
    expect(fast).toHaveLength(lines.length + 2);
    expect(fast).toEqual(sdk);
    // The plain calls were the fast path's; every malformed one was handed to the SDK.
    expect(fastTaken).toEqual(['first', 1, 's-1', 2, 3, 4, 5, 6, 7, 8]);
    expect(JSON.parse(fast[7] as string)).toEqual({
      jsonrpc: '2.0',
      id: 5,
      result: { content: [{ type: 'text', text: expect.stringContaining('INVALID_PARAMETERS') }], isError: true },
    });
  });

  it('drops the answer of a call cancelled in flight, as the SDK does, and serves the next', async () => {
    for (const fastPath of [true, false]) {
      const io = await start(fastPath);
      io.raw(`${JSON.stringify(initialize)}\n${JSON.stringify(initialized)}\n`);
      io.raw(`${request(1, { name: 'slow', arguments: { text: 'late' } })}\n`);
      await new Promise((resolve) => setTimeout(resolve, 50));
      io.raw(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } })}\n`);
      await new Promise((resolve) => setTimeout(resolve, 20));
      io.release();
      io.raw(`${request(2, { name: 'echo', arguments: { text: 'next' } })}\n`);
      const lines = await io.until(2);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(lines.map((line) => JSON.parse(line).id)).toEqual([0, 2]);
      await io.handle.close();
    }
  });
});

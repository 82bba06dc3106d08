/**
 * serveStdio over in-process streams: the handshake is answered without loading the
 * SDK server, the first other message hands over (the answered initialize replayed,
 * nothing answered twice, nothing lost or reordered), and without handshake data the
 * SDK answers from the first message on.
 */
import { PassThrough } from 'node:stream';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { ToolRegistry } from '../src/index';
import { mcpHandshake } from '../src/mcp/index';
import { type StdioOptions, serveStdio } from '../src/mcp/stdio';
import { echoTool, initialized, initializeRequest } from './_stdio-fixtures';

const calls: string[] = [];
const echo = echoTool((text) => calls.push(text));
const registry = new ToolRegistry([echo], {}, { now: () => 0 });

const initialize = initializeRequest(1);
const call = (id: number, text: string) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name: 'echo', arguments: { text } },
});

async function start(options: Partial<StdioOptions> = {}) {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const errors: Error[] = [];
  const lines: Array<Record<string, unknown>> = [];
  let waiting: Array<() => void> = [];
  let pending = '';
  stdout.on('data', (chunk: Buffer) => {
    pending += chunk.toString();
    for (let n = pending.indexOf('\n'); n !== -1; n = pending.indexOf('\n')) {
      lines.push(JSON.parse(pending.slice(0, n)));
      pending = pending.slice(n + 1);
    }
    for (const wake of waiting.splice(0)) wake();
  });
  const handle = await serveStdio({
    registry,
    toolset: 'all',
    version: '1.0.0',
    stdin,
    stdout,
    onError: (error) => errors.push(error),
    ...options,
  });
  return {
    handle,
    errors,
    lines,
    send: (...messages: unknown[]) => stdin.write(messages.map((m) => `${JSON.stringify(m)}\n`).join('')),
    raw: (text: string) => stdin.write(text),
    end: () => stdin.end(),
    async until(count: number) {
      while (lines.length < count) await new Promise<void>((wake) => waiting.push(wake));
      waiting = [];
      return lines;
    },
  };
}

describe('serveStdio with handshake data', () => {
  it('answers initialize, ping and tools/list without loading the SDK server', async () => {
    const handshake = await mcpHandshake(registry);
    const io = await start({ handshake, instructions: 'Be brief.' });
    io.send(
      initialize,
      initialized,
      { jsonrpc: '2.0', id: 2, method: 'tools/list' },
      { jsonrpc: '2.0', id: 3, method: 'ping' },
    );
    const [init, list, ping] = await io.until(3);
    expect(init).toEqual({
      result: {
        protocolVersion: LATEST_PROTOCOL_VERSION,
        capabilities: { tools: {} },
        serverInfo: { name: 'colony', version: '1.0.0' },
        instructions: 'Be brief.',
      },
      jsonrpc: '2.0',
      id: 1,
    });
    expect(list).toEqual({ result: { tools: JSON.parse(handshake.tools.all ?? '') }, jsonrpc: '2.0', id: 2 });
    expect(ping).toEqual({ result: {}, jsonrpc: '2.0', id: 3 });
    expect(io.handle.loaded()).toBe(false);
    io.end();
    await io.handle.closed;
    expect(io.errors).toEqual([]);
  });

  it('hands the first tool call to the SDK server, in order, answering nothing twice', async () => {
    const io = await start({ handshake: await mcpHandshake(registry) });
    calls.length = 0;
    io.send(initialize, initialized, call(2, 'a'), call(3, 'b'), { jsonrpc: '2.0', id: 4, method: 'tools/list' });
    const lines = await io.until(4);
    expect(io.handle.loaded()).toBe(true);
    // Requests reach the SDK in arrival order; like the SDK, answers go out as each is ready.
    expect(calls).toEqual(['a', 'b']);
    const byId = new Map(lines.map((l) => [l.id, l]));
    expect([...byId.keys()].sort()).toEqual([1, 2, 3, 4]);
    const echoed = (id: number, text: string) => ({
      result: { content: [{ type: 'text', text: JSON.stringify({ echoed: text }) }] },
      jsonrpc: '2.0',
      id,
    });
    expect(byId.get(2)).toEqual(echoed(2, 'a'));
    expect(byId.get(3)).toEqual(echoed(3, 'b'));
    expect((byId.get(4)!.result as { tools: unknown[] }).tools).toHaveLength(1);
    io.send({ jsonrpc: '2.0', id: 'x', method: 'resources/list' });
    const [, , , , unknown] = await io.until(5);
    expect(unknown).toEqual({ jsonrpc: '2.0', id: 'x', error: { code: -32601, message: 'Method not found' } });
    io.end();
    await io.handle.closed;
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(io.lines).toHaveLength(5);
  });

  it('warms up once after notifications/initialized, in idle time, then hands over answering nothing twice', async () => {
    let warmed = 0;
    const source = {
      list: registry.list.bind(registry),
      call: registry.call.bind(registry),
      warm: () => void warmed++,
    };
    const io = await start({ handshake: await mcpHandshake(registry), registry: source });
    io.send(initialize);
    await io.until(1);
    expect(warmed).toBe(0);
    io.send(initialized, { jsonrpc: '2.0', id: 2, method: 'tools/list' });
    await io.until(2);
    for (let i = 0; i < 100 && warmed === 0; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(warmed).toBe(1);
    expect(io.handle.loaded()).toBe(false);
    io.send({ jsonrpc: '2.0', id: 3, method: 'ping' }, call(4, 'w'));
    const lines = await io.until(4);
    expect(lines.slice(2)).toEqual([
      { result: {}, jsonrpc: '2.0', id: 3 },
      { result: { content: [{ type: 'text', text: '{"echoed":"w"}' }] }, jsonrpc: '2.0', id: 4 },
    ]);
    io.end();
    await io.handle.closed;
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(io.lines).toHaveLength(4);
    expect(warmed).toBe(1);
    expect(io.errors).toEqual([]);
  });

  it('does not warm up with warmUp: false', async () => {
    let warmed = 0;
    const source = {
      list: registry.list.bind(registry),
      call: registry.call.bind(registry),
      warm: () => void warmed++,
    };
    const io = await start({ handshake: await mcpHandshake(registry), registry: source, warmUp: false });
    io.send(initialize, initialized, { jsonrpc: '2.0', id: 2, method: 'ping' });
    await io.until(2);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(warmed).toBe(0);
    await io.handle.close();
  });

  it('drops a line that is not JSON, says so, and keeps serving', async () => {
    const io = await start({ handshake: await mcpHandshake(registry) });
    io.raw('{not json\n');
    io.send({ jsonrpc: '2.0', id: 1, method: 'ping' });
    expect(await io.until(1)).toEqual([{ result: {}, jsonrpc: '2.0', id: 1 }]);
    expect(io.errors.map((e) => e.message)).toEqual([expect.stringMatching(/not JSON/)]);
    await io.handle.close();
  });

  it('reads messages split across chunks and CRLF line ends', async () => {
    const io = await start({ handshake: await mcpHandshake(registry) });
    const text = `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' })}\r\n`;
    io.raw(text.slice(0, 10));
    io.raw(text.slice(10));
    expect(await io.until(1)).toEqual([{ result: {}, jsonrpc: '2.0', id: 1 }]);
    await io.handle.close();
  });
});

describe('serveStdio without handshake data', () => {
  it('lets the SDK server answer everything from the first message', async () => {
    const io = await start();
    io.send(initialize, initialized, call(2, 'c'));
    const [init, result] = await io.until(2);
    expect(io.handle.loaded()).toBe(true);
    expect(init).toMatchObject({ id: 1, result: { serverInfo: { name: 'colony', version: '1.0.0' } } });
    expect(result).toMatchObject({ id: 2, result: { content: [{ text: '{"echoed":"c"}' }] } });
    io.end();
    await io.handle.closed;
  });
});

describe('serveStdio answers every request with an id', () => {
  const max = 1_000;

  it('answers a line over the limit, split across chunks, with its id from the end; the next line is served', async () => {
    const io = await start({ handshake: await mcpHandshake(registry), maxLineBytes: max, now: () => 0 });
    const big = JSON.stringify({
      method: 'tools/call',
      params: { name: 'echo', arguments: { text: 'x'.repeat(3 * max) } },
      jsonrpc: '2.0',
      id: 41,
    });
    io.raw(big.slice(0, 700));
    io.raw(big.slice(700, 2_500));
    io.raw(`${big.slice(2_500)}\n${JSON.stringify({ jsonrpc: '2.0', id: 42, method: 'ping' })}\n`);
    const [oversize, ping] = await io.until(2);
    expect(oversize).toMatchObject({ jsonrpc: '2.0', id: 41, result: { isError: true } });
    const payload = JSON.parse((oversize!.result as { content: Array<{ text: string }> }).content[0]!.text);
    expect(payload).toMatchObject({ code: 'INVALID_PARAMETERS', tool: 'echo', timestamp: new Date(0).toISOString() });
    expect(ping).toEqual({ result: {}, jsonrpc: '2.0', id: 42 });
    expect(calls).not.toContain('x'.repeat(3 * max));
    await io.handle.close();
  });

  it('answers -32600 with the id up front, or with id null when none can be recovered', async () => {
    const io = await start({ handshake: await mcpHandshake(registry), maxLineBytes: max });
    io.raw(`{"jsonrpc":"2.0","id":"a","method":"ping","params":{"pad":"${'p'.repeat(2 * max)}"}}\n`);
    io.raw(`[${'1,'.repeat(max)}1]\n`);
    const [first, second] = await io.until(2);
    expect(first).toMatchObject({ id: 'a', error: { code: -32600 } });
    expect(second).toMatchObject({ id: null, error: { code: -32600 } });
    await io.handle.close();
  });

  it('answers a request the SDK schemas refuse (params null) with its id, after hand-over too', async () => {
    const io = await start({ handshake: await mcpHandshake(registry) });
    io.send(initialize, initialized, { jsonrpc: '2.0', id: 5, method: 'tools/call', params: null });
    const [, refused] = await io.until(2);
    expect(refused).toMatchObject({ jsonrpc: '2.0', id: 5, error: { code: -32602 } });
    io.send({ jsonrpc: '2.0', id: 6, method: 'tools/call', params: 'echo' }, call(7, 'ok'));
    const [, , six, seven] = await io.until(4);
    expect(six).toMatchObject({ id: 6, error: { code: -32602 } });
    expect(seven).toMatchObject({ id: 7, result: { content: [{ type: 'text', text: '{"echoed":"ok"}' }] } });
    await io.handle.close();
  });
});

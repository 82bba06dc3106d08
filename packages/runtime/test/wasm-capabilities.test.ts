/**
 * WASM tool capabilities on real worker threads: each host function works with its
 * capability and is CapabilityDenied without it; workspace reads stay in the worktree
 * (no `..`, within workspace_prefixes); HTTP goes only to allowlisted hosts (a server on
 * 127.0.0.1), with a granted secret injected into a header and redacted from the body;
 * the tools register as one agent ToolExecutor with schemas from their exports.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveWasmLimits, runWasm, type WasmToolConfig, wasmTools } from '../src/index.js';
import { fixtures, guest } from './_wat.js';

const fx = fixtures();
const worktree = join(fx.dir, 'wt');
const signal = new AbortController().signal;
/** Passes its input to one host function and outputs the answer. */
const through = (call: string) => guest(`(func (export "execute") (param $p i32) (param $l i32) (result i32) ${call})`);
let paths: Record<string, string>;
beforeAll(() => {
  mkdirSync(join(worktree, 'src'), { recursive: true });
  writeFileSync(join(worktree, 'src', 'a.txt'), 'alpha');
  writeFileSync(join(worktree, 'notes.txt'), 'private');
  writeFileSync(join(fx.dir, 'outside.txt'), 'outside');
  paths = {
    log: fx.file(
      'log',
      through(
        '(call $log (i32.const 2) (local.get $p) (local.get $l)) (call $output (local.get $p) (local.get $l)) (i32.const 0)',
      ),
    ),
    read: fx.file('read', through('(call $ret (call $read (local.get $p) (local.get $l)))')),
    http: fx.file('http', through('(call $ret (call $http (local.get $p) (local.get $l)))')),
    secret: fx.file(
      'secret',
      through('(i64.extend_i32_u (call $secret (local.get $p) (local.get $l))) (drop) (i32.const 0)'),
    ),
  };
});
afterAll(() => fx.cleanup());

const run = (path: string, input: string, tool: Partial<WasmToolConfig> = {}, env?: Record<string, string>) => {
  const config: WasmToolConfig = { name: 't', path, ...tool };
  return runWasm('execute', input, {
    tool: config,
    limits: resolveWasmLimits(config.limits),
    worktree,
    module_path: path,
    ...(env ? { env } : {}),
  });
};

describe('wasm tool capabilities', () => {
  it('logs with Logging and is CapabilityDenied without it', async () => {
    const granted = await run(paths.log as string, 'hello', { capabilities: ['Logging'] });
    expect(granted).toMatchObject({ ok: true, output: 'hello', logs: [{ level: 'info', message: 'hello' }] });
    const denied = await run(paths.log as string, 'hello', { capabilities: ['logging'] });
    expect(denied).toMatchObject({ ok: false, kind: 'CapabilityDenied' });
    expect(denied.ok === false && denied.error).toContain('log needs capability Logging');
  });

  it('reads workspace files with WorkspaceRead, never outside the worktree or its prefixes', async () => {
    const tool = { capabilities: ['WorkspaceRead'], workspace_prefixes: ['src/'] };
    expect(await run(paths.read as string, 'src/a.txt', tool)).toMatchObject({ ok: true, output: 'alpha' });
    expect(await run(paths.read as string, '../outside.txt', tool)).toMatchObject({
      ok: false,
      kind: 'HostFunctionError',
    });
    expect(await run(paths.read as string, join(fx.dir, 'outside.txt'), tool)).toMatchObject({
      ok: false,
      kind: 'HostFunctionError',
    });
    const notPrefixed = await run(paths.read as string, 'notes.txt', tool);
    expect(notPrefixed.ok === false && notPrefixed.error).toContain('outside workspace_prefixes');
    const tight = await run(paths.read as string, 'src/a.txt', { ...tool, limits: { max_file_read_bytes: 3 } });
    expect(tight).toMatchObject({ ok: false, kind: 'RateLimitExceeded' });
    expect(await run(paths.read as string, 'src/a.txt')).toMatchObject({ ok: false, kind: 'CapabilityDenied' });
  });

  it('answers SecretCheck only for granted names', async () => {
    expect(await run(paths.secret as string, 'TOKEN', {}, { TOKEN: 'x' })).toMatchObject({ kind: 'CapabilityDenied' });
    expect(
      await run(paths.secret as string, 'TOKEN', { capabilities: ['SecretCheck'], secrets: ['TOKEN'] }, { TOKEN: 'x' }),
    ).toMatchObject({ ok: true });
  });

  describe('HttpRequest', () => {
    let port = 0;
    const seen: string[] = [];
    const server = createServer((req, res) => {
      seen.push(String(req.headers.authorization));
      res.end(`echo ${req.headers.authorization}`);
    });
    beforeAll(async () => {
      await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
      port = (server.address() as { port: number }).port;
    });
    afterAll(() => server.close());
    const request = () =>
      JSON.stringify({ url: `http://127.0.0.1:${port}/x`, headers: { authorization: 'Bearer $API_TOKEN' } });
    const tool = { capabilities: ['HttpRequest'], secrets: ['API_TOKEN'], endpoint_allowlist: ['127.0.0.*'] };
    const env = { API_TOKEN: 's3cr3t-value' };

    it('injects a granted secret into headers and redacts it from the body', async () => {
      const out = await run(paths.http as string, request(), tool, env);
      expect(out.ok).toBe(true);
      expect(JSON.parse(out.ok ? out.output : '{}')).toMatchObject({
        status: 200,
        body: 'echo Bearer [REDACTED:API_TOKEN]',
      });
      expect(seen).toContain('Bearer s3cr3t-value');
    });

    it('refuses hosts off the allowlist, counts requests, and needs the capability', async () => {
      const off = await run(paths.http as string, request(), { ...tool, endpoint_allowlist: ['api.example.com'] }, env);
      expect(off.ok === false && off.error).toContain('not in endpoint_allowlist');
      expect(
        await run(paths.http as string, request(), { ...tool, limits: { max_http_requests: 0 } }, env),
      ).toMatchObject({ kind: 'RateLimitExceeded' });
      expect(await run(paths.http as string, request(), { endpoint_allowlist: ['127.0.0.*'] }, env)).toMatchObject({
        kind: 'CapabilityDenied',
      });
    });
  });

  it('registers tools as one agent executor with schemas from their exports; failures name the seed kind', async () => {
    const described = fx.file(
      'described',
      guest(`(data (i32.const 0) "Says hi{\\"type\\":\\"object\\"}")
        (func (export "description") (call $output (i32.const 0) (i32.const 7)))
        (func (export "schema") (call $output (i32.const 7) (i32.const 17)))
        (func (export "execute") (param $p i32) (param $l i32) (result i32)
          (call $log (i32.const 2) (local.get $p) (local.get $l)) (i32.const 0))`),
    );
    const tools = await wasmTools({
      tools: [
        { name: 'hi', path: described, capabilities: ['Logging'] },
        { name: 'mute', path: described },
      ],
      base: fx.dir,
      worktree,
    });
    expect(tools.schemas[0]).toEqual({ name: 'hi', description: 'Says hi', input_schema: { type: 'object' } });
    const ok = await tools.executor.execute({ id: '1', name: 'hi', input: { a: 1 } }, { signal });
    expect(ok).toEqual({ content: '\nlogs:\n[info] {"a":1}', is_error: false });
    const denied = await tools.executor.execute({ id: '2', name: 'mute', input: {} }, { signal });
    expect(denied.is_error).toBe(true);
    expect(denied.content).toMatch(/^CapabilityDenied: log needs capability Logging/);
  });
});

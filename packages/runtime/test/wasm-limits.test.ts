/**
 * WASM tools against their limits, on real worker threads: an infinite loop is stopped
 * at execution_timeout_secs (TimeoutExceeded), a module growing past max_memory_bytes
 * traps (ExecutionTrapped naming the limit) and one asking for more initial memory is
 * InstantiationFailed; each time the worker is gone afterwards. Bad bytes are
 * CompilationFailed, an unknown import InstantiationFailed.
 */
import type { Worker } from 'node:worker_threads';
import { afterAll, describe, expect, it } from 'vitest';
import { resolveWasmLimits, runWasm, type WasmToolConfig } from '../src/index.js';
import { fixtures, guest } from './_wat.js';

const fx = fixtures();
afterAll(() => fx.cleanup());

const run = async (path: string, tool: Partial<WasmToolConfig> = {}) => {
  let worker: Worker | undefined;
  const config: WasmToolConfig = { name: 't', path, ...tool };
  const outcome = await runWasm('execute', '{}', {
    tool: config,
    limits: resolveWasmLimits(config.limits),
    worktree: fx.dir,
    module_path: path,
    onWorker: (w) => {
      worker = w;
    },
  });
  return { outcome, worker };
};

describe('wasm tool limits', () => {
  it('stops an infinite loop at execution_timeout_secs with TimeoutExceeded, and the worker is gone', async () => {
    const path = fx.file(
      'spin',
      guest('(func (export "execute") (param i32 i32) (result i32) (loop $l (br $l)) (i32.const 0))'),
    );
    const started = performance.now();
    const { outcome, worker } = await run(path, { limits: { execution_timeout_secs: 1 } });
    const elapsed = performance.now() - started;
    expect(outcome).toMatchObject({ ok: false, kind: 'TimeoutExceeded' });
    expect(elapsed).toBeGreaterThanOrEqual(950);
    expect(elapsed).toBeLessThan(3000);
    expect(worker?.threadId).toBe(-1);
  });

  it('traps a module growing past max_memory_bytes with ExecutionTrapped, and the worker is gone', async () => {
    // Grows one page at a time until memory.grow fails (-1), then traps as an allocator would.
    const body = `(func (export "execute") (param i32 i32) (result i32)
      (loop $l (br_if $l (i32.ne (memory.grow (i32.const 1)) (i32.const -1))))
      unreachable)`;
    const path = fx.file('hog', guest(body));
    const { outcome, worker } = await run(path, { limits: { max_memory_bytes: 1024 * 1024 } });
    expect(outcome).toMatchObject({ ok: false, kind: 'ExecutionTrapped' });
    expect(outcome.ok === false && outcome.error).toContain('memory at max_memory_bytes: 1048576 bytes');
    expect(worker?.threadId).toBe(-1);
    // The same module under the default 64 MiB grows far beyond 1 MiB before trapping.
    const roomy = await run(path);
    expect(roomy.outcome.ok === false && roomy.outcome.error).toContain('67108864 bytes');
  });

  it('refuses a module asking for more initial memory than max_memory_bytes (InstantiationFailed)', async () => {
    const path = fx.file(
      'big',
      guest('(func (export "execute") (param i32 i32) (result i32) (i32.const 0))', '(memory (export "memory") 32)'),
    );
    const { outcome, worker } = await run(path, { limits: { max_memory_bytes: 1024 * 1024 } });
    expect(outcome).toMatchObject({ ok: false, kind: 'InstantiationFailed' });
    expect(worker).toBeUndefined();
  });

  it('bounds an imported memory the same way', async () => {
    const wat = guest(
      `(func (export "execute") (param i32 i32) (result i32)
        (loop $l (br_if $l (i32.ne (memory.grow (i32.const 1)) (i32.const -1))))
        unreachable)`,
      '(import "env" "memory" (memory 1))',
    );
    const path = fx.file('imported', wat);
    const { outcome } = await run(path, { limits: { max_memory_bytes: 2 * 65536 } });
    expect(outcome).toMatchObject({ ok: false, kind: 'ExecutionTrapped' });
    expect(outcome.ok === false && outcome.error).toContain('memory at max_memory_bytes: 131072 bytes');
  });

  it('answers CompilationFailed for bytes that are not a module and InstantiationFailed for an unknown import', async () => {
    const bad = fx.file('bad', '(module)');
    const { writeFileSync } = await import('node:fs');
    writeFileSync(bad, 'not wasm');
    expect((await run(bad)).outcome).toMatchObject({ ok: false, kind: 'CompilationFailed' });
    const odd = fx.file(
      'odd',
      '(module (import "colony" "teleport" (func)) (func (export "execute") (param i32 i32) (result i32) (i32.const 0)))',
    );
    expect((await run(odd)).outcome).toMatchObject({ ok: false, kind: 'InstantiationFailed' });
  });
});

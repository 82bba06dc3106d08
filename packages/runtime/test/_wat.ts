/**
 * WASM tool fixtures for the tests: WebAssembly text compiled at test time with the
 * `wabt` package (a dev dependency), written to a temp folder. `guest(body)` wraps a
 * module body in colony's ABI prelude: every colony import, one exported page of
 * memory, a bump `alloc`, and `$ret` (output an i64 packed pointer/length).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import wabt from 'wabt';

const toolkit = await wabt();

export function watBytes(source: string): Uint8Array {
  const parsed = toolkit.parseWat('fixture.wat', source);
  try {
    return parsed.toBinary({}).buffer;
  } finally {
    parsed.destroy();
  }
}

export function guest(body: string, memory = '(memory (export "memory") 1)'): string {
  return `(module
  (import "colony" "output" (func $output (param i32 i32)))
  (import "colony" "log" (func $log (param i32 i32 i32)))
  (import "colony" "read_workspace_file" (func $read (param i32 i32) (result i64)))
  (import "colony" "http_request" (func $http (param i32 i32) (result i64)))
  (import "colony" "invoke_tool" (func $invoke (param i32 i32 i32 i32) (result i64)))
  (import "colony" "secret_exists" (func $secret (param i32 i32) (result i32)))
  ${memory}
  (global $next (mut i32) (i32.const 1024))
  (func (export "alloc") (param $n i32) (result i32)
    (local $p i32)
    (local.set $p (global.get $next))
    (global.set $next (i32.add (global.get $next) (local.get $n)))
    (local.get $p))
  (func $ret (param $r i64) (result i32)
    (call $output (i32.wrap_i64 (i64.shr_u (local.get $r) (i64.const 32))) (i32.wrap_i64 (local.get $r)))
    (i32.const 0))
  ${body})`;
}

/** A folder of fixture modules; `file(name, wat)` writes one and returns its path. */
export function fixtures(): { dir: string; file: (name: string, wat: string) => string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'wasm-tools-'));
  return {
    dir,
    file: (name, wat) => {
      const path = join(dir, `${name}.wasm`);
      writeFileSync(path, watBytes(wat));
      return path;
    },
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

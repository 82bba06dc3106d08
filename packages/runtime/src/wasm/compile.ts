/**
 * @module wasm/compile
 * A WASM tool's file, memory-limited (memory-limit.ts) and compiled once per content
 * and limit (a cache keyed by the bytes' SHA-256 and the page limit, so an edited file
 * is recompiled). Compilation is async (off the caller's thread in V8). A file that is
 * missing or not a module is `CompilationFailed`.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { WasmToolError } from './errors.js';
import { type ImportedMemory, limitMemory } from './memory-limit.js';

/** The global WebAssembly API (this package's TypeScript lib has no DOM types). */
const wasm = (globalThis as unknown as { WebAssembly: { compile(bytes: Uint8Array): Promise<object> } }).WebAssembly;

export interface CompiledTool {
  /** A WebAssembly.Module (posted to the worker as is). */
  readonly module: object;
  readonly imported: ImportedMemory | null;
}

const cache = new Map<string, Promise<CompiledTool>>();

export async function compileWasmTool(path: string, pages: number): Promise<CompiledTool> {
  let bytes: Uint8Array;
  try {
    bytes = new Uint8Array(await readFile(path));
  } catch (error) {
    throw new WasmToolError('CompilationFailed', `cannot read ${path}: ${(error as Error).message}`);
  }
  const key = `${createHash('sha256').update(bytes).digest('hex')}:${pages}`;
  let compiled = cache.get(key);
  if (!compiled) {
    compiled = compile(bytes, pages);
    cache.set(key, compiled);
    compiled.catch(() => cache.delete(key));
  }
  return compiled;
}

async function compile(bytes: Uint8Array, pages: number): Promise<CompiledTool> {
  const limited = limitMemory(bytes, pages);
  try {
    return { module: await wasm.compile(limited.bytes), imported: limited.imported };
  } catch (error) {
    throw new WasmToolError('CompilationFailed', (error as Error).message);
  }
}

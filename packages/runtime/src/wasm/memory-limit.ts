/**
 * @module wasm/memory-limit
 * `max_memory_bytes` made binding before a module runs: every memory the module defines
 * gets a maximum of at most the limit (its own maximum if lower), rewritten in the
 * binary, so `memory.grow` past it fails (-1) as in wasmtime, and a guest allocator
 * that cannot grow traps (`ExecutionTrapped`). An imported memory is created by the
 * host with the same bound. A module asking for more initial memory than the limit is
 * `InstantiationFailed`. Only 32-bit, unshared memories (flags 0 or 1) are accepted.
 */
import { malformed, Reader, u32Leb } from './_leb.js';
import { WasmToolError } from './errors.js';

export interface ImportedMemory {
  readonly module: string;
  readonly name: string;
  readonly initial: number;
  readonly maximum: number;
}

export interface LimitedModule {
  readonly bytes: Uint8Array;
  readonly imported: ImportedMemory | null;
}

const IMPORT_SECTION = 2;
const MEMORY_SECTION = 5;

export function limitMemory(wasm: Uint8Array, pages: number): LimitedModule {
  const magic = [0x00, 0x61, 0x73, 0x6d];
  if (wasm.length < 8 || magic.some((b, i) => wasm[i] !== b)) throw malformed('no \\0asm header');
  const parts: Uint8Array[] = [wasm.subarray(0, 8)];
  let imported: ImportedMemory | null = null;
  const r = new Reader(wasm, 8);
  while (r.pos < wasm.length) {
    const start = r.pos;
    const id = r.u8();
    const size = r.u32();
    const end = r.pos + size;
    if (end > wasm.length) throw malformed(`section ${id} past the end`);
    if (id === IMPORT_SECTION) imported = importedMemory(new Reader(wasm, r.pos, end), pages);
    if (id === MEMORY_SECTION) {
      const payload = memorySection(new Reader(wasm, r.pos, end), pages);
      parts.push(Uint8Array.from([id, ...u32Leb(payload.length), ...payload]));
    } else {
      parts.push(wasm.subarray(start, end));
    }
    r.pos = end;
  }
  return { bytes: concat(parts), imported };
}

function limits(r: Reader, what: string): { min: number; max: number | null } {
  const flags = r.u8();
  if (flags > 1) throw new WasmToolError('InstantiationFailed', `${what}: only 32-bit unshared memories are supported`);
  const min = r.u32();
  return { min, max: flags === 1 ? r.u32() : null };
}

function bounded(min: number, max: number | null, pages: number, what: string): number {
  if (min > pages) {
    throw new WasmToolError(
      'InstantiationFailed',
      `${what} asks for ${min} pages of initial memory, over max_memory_bytes (${pages} pages of 64 KiB)`,
    );
  }
  return Math.min(max ?? pages, pages);
}

function memorySection(r: Reader, pages: number): number[] {
  const count = r.u32();
  const out = [...u32Leb(count)];
  for (let i = 0; i < count; i++) {
    const { min, max } = limits(r, 'memory');
    out.push(0x01, ...u32Leb(min), ...u32Leb(bounded(min, max, pages, 'the module')));
  }
  return out;
}

function importedMemory(r: Reader, pages: number): ImportedMemory | null {
  let found: ImportedMemory | null = null;
  const count = r.u32();
  for (let i = 0; i < count; i++) {
    const module = r.name();
    const name = r.name();
    const kind = r.u8();
    if (kind === 0) r.u32();
    else if (kind === 1) {
      r.u8();
      const flags = r.u8();
      r.u32();
      if (flags & 1) r.u32();
    } else if (kind === 2) {
      const { min, max } = limits(r, `imported memory ${module}.${name}`);
      found = { module, name, initial: min, maximum: bounded(min, max, pages, `imported memory ${module}.${name}`) };
    } else if (kind === 3) {
      r.u8();
      r.u8();
    } else if (kind === 4) {
      r.u8();
      r.u32();
    } else throw malformed(`unknown import kind ${kind}`);
  }
  return found;
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

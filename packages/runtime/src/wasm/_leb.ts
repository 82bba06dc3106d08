/**
 * @module wasm/_leb
 * Just enough of the WebAssembly binary format to read and write unsigned LEB128
 * numbers, names and sections (memory-limit.ts reads the import and memory sections).
 * A malformed module throws `CompilationFailed`.
 */
import { WasmToolError } from './errors.js';

export class Reader {
  pos: number;
  constructor(
    readonly bytes: Uint8Array,
    start = 0,
    readonly end = bytes.length,
  ) {
    this.pos = start;
  }
  u8(): number {
    if (this.pos >= this.end) throw malformed('unexpected end');
    return this.bytes[this.pos++]!;
  }
  u32(): number {
    let result = 0;
    let shift = 0;
    for (;;) {
      const byte = this.u8();
      result += (byte & 0x7f) * 2 ** shift;
      if ((byte & 0x80) === 0) break;
      shift += 7;
      if (shift > 28) throw malformed('integer too long');
    }
    if (result > 0xffff_ffff) throw malformed('integer too large');
    return result;
  }
  name(): string {
    const length = this.u32();
    if (this.pos + length > this.end) throw malformed('name past the end');
    const text = new TextDecoder().decode(this.bytes.subarray(this.pos, this.pos + length));
    this.pos += length;
    return text;
  }
}

export function u32Leb(value: number): number[] {
  const out: number[] = [];
  let rest = value >>> 0;
  do {
    let byte = rest & 0x7f;
    rest >>>= 7;
    if (rest !== 0) byte |= 0x80;
    out.push(byte);
  } while (rest !== 0);
  return out;
}

export function malformed(why: string): WasmToolError {
  return new WasmToolError('CompilationFailed', `not a valid WebAssembly module: ${why}`);
}

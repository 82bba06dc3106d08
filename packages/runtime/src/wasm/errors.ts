/**
 * @module wasm/errors
 * Seed 003's WASM tool error kinds, by their exact names. A failed invocation is a tool
 * result with `is_error: true` whose text starts with the kind (`CapabilityDenied: ...`),
 * as the seed's troubleshooting names them; no new colony error codes (inventory WA-15).
 * `FuelExhausted` is listed for the seed's sake and never produced: V8 has no fuel
 * metering (docs/sandbox.md).
 */

export const WASM_ERROR_KINDS = [
  'CompilationFailed',
  'InstantiationFailed',
  'ExecutionTrapped',
  'FuelExhausted',
  'TimeoutExceeded',
  'HostFunctionError',
  'CapabilityDenied',
  'RateLimitExceeded',
] as const;
export type WasmErrorKind = (typeof WASM_ERROR_KINDS)[number];

export class WasmToolError extends Error {
  override readonly name = 'WasmToolError';
  constructor(
    readonly kind: WasmErrorKind,
    message: string,
  ) {
    super(message);
  }
}

/** The tool-result text of a failure: `<Kind>: <message>`. */
export function wasmErrorText(kind: WasmErrorKind, message: string): string {
  return `${kind}: ${message}`;
}

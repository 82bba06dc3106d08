/**
 * @module wasm/limits
 * Seed 003's WasmLimitsConfig with its runtime defaults and maxima (64 MiB memory, at
 * most 512; 30 s, at most 300; 1,000 log entries, 50 HTTP requests, 20 tool
 * invocations, 10 MiB of file reads per invocation). `fuel_limit` is kept as given but
 * not enforced (no fuel in V8): the timeout bounds a run instead.
 */
import type { WasmLimitsConfig } from '../settings/schema.js';

export const WASM_PAGE_BYTES = 65_536;

export interface WasmLimits {
  readonly max_memory_bytes: number;
  readonly fuel_limit: number;
  readonly execution_timeout_secs: number;
  readonly max_log_entries: number;
  readonly max_http_requests: number;
  readonly max_tool_invocations: number;
  readonly max_file_read_bytes: number;
}

export const DEFAULT_WASM_LIMITS: WasmLimits = {
  max_memory_bytes: 64 * 1024 * 1024,
  fuel_limit: 1_000_000_000,
  execution_timeout_secs: 30,
  max_log_entries: 1000,
  max_http_requests: 50,
  max_tool_invocations: 20,
  max_file_read_bytes: 10 * 1024 * 1024,
};

export function resolveWasmLimits(config: WasmLimitsConfig | null | undefined): WasmLimits {
  const out: Record<string, number> = { ...DEFAULT_WASM_LIMITS };
  for (const [key, value] of Object.entries(config ?? {})) if (typeof value === 'number') out[key] = value;
  return out as unknown as WasmLimits;
}

/** Whole 64 KiB pages within `max_memory_bytes`. */
export function maxPages(limits: WasmLimits): number {
  return Math.floor(limits.max_memory_bytes / WASM_PAGE_BYTES);
}

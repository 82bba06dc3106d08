/**
 * @module wasm/workspace-read
 * `read_workspace_file` (capability WorkspaceRead), seed 003's six file rules: `..`
 * refused; the path resolved inside the worktree, no symbolic link on the way (the
 * agent tools' `confine`); within a `workspace_prefixes` entry when any is set; the
 * cumulative bytes read within `max_file_read_bytes` (RateLimitExceeded past it).
 */
import { readFileSync, statSync } from 'node:fs';
import { ConfinementError, confine } from '../tools/_confine.js';
import { WasmToolError } from './errors.js';

export interface ReadState {
  bytes_read: number;
}

export function readWorkspaceFile(
  worktree: string,
  prefixes: readonly string[],
  maxBytes: number,
  state: ReadState,
  path: string,
): string {
  let relative: string;
  let absolute: string;
  try {
    ({ relative, absolute } = confine(worktree, path));
  } catch (error) {
    if (error instanceof ConfinementError) throw new WasmToolError('HostFunctionError', error.message);
    throw error;
  }
  if (prefixes.length > 0 && !prefixes.some((p) => matchesPrefix(relative, p))) {
    throw new WasmToolError('HostFunctionError', `path ${path} is outside workspace_prefixes (${prefixes.join(', ')})`);
  }
  let size: number;
  try {
    size = statSync(absolute).size;
  } catch {
    throw new WasmToolError('HostFunctionError', `no such file: ${relative}`);
  }
  if (state.bytes_read + size > maxBytes) {
    throw new WasmToolError(
      'RateLimitExceeded',
      `reading ${relative} (${size} bytes) passes max_file_read_bytes (${maxBytes}; ${state.bytes_read} read)`,
    );
  }
  state.bytes_read += size;
  return readFileSync(absolute, 'utf8');
}

function matchesPrefix(relative: string, prefix: string): boolean {
  const clean = prefix.replace(/^\.\//, '');
  if (clean.endsWith('/')) return relative.startsWith(clean);
  return relative === clean || relative.startsWith(`${clean}/`);
}

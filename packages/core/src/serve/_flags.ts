/**
 * @module flags
 * Validation of the serving flags shared by `colony-mcp` and `colony mcp`.
 */
// From the import-free entry: the whole tools catalog must not load to check a flag.
import { TOOLSETS, type Toolset } from '@swarm/tools/mcp/stdio';

export const DEFAULT_HTTP_PORT = 7777;

export interface ServeFlags {
  readonly toolset: Toolset;
  readonly http?: { readonly port: number; readonly token?: string };
}

export function parseServeFlags(values: {
  toolset?: string;
  http?: boolean;
  port?: string;
  token?: string;
}): ServeFlags {
  const toolset = (values.toolset ?? 'all') as Toolset;
  if (!TOOLSETS.includes(toolset)) throw new Error(`--toolset must be ${TOOLSETS.join(', ')}, not "${toolset}"`);
  if (!values.http) {
    if (values.port !== undefined || values.token !== undefined) throw new Error('--port and --token need --http');
    return { toolset };
  }
  // Digits only: Number() would read '' as 0 (a random port) and '0x1f90' or '1e3' as ports.
  const port =
    values.port === undefined ? DEFAULT_HTTP_PORT : /^\d{1,5}$/.test(values.port) ? Number(values.port) : Number.NaN;
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`--port must be 0-65535, not "${values.port}"`);
  return { toolset, http: { port, ...(values.token ? { token: values.token } : {}) } };
}

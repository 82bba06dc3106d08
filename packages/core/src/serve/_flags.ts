/**
 * @module flags
 * Validation of the serving flags shared by `colony-mcp` and `colony mcp`.
 */
// From the import-free entry: the whole tools catalog must not load to check a flag.
import { TOOLSETS, type Toolset } from '@swarm/tools/mcp/stdio';

export const DEFAULT_HTTP_PORT = 7777;

export interface ServeFlags {
  readonly toolset: Toolset;
  /** `--allow-exec`: serve the runtime tools (they run commands on the host). */
  readonly allowExec?: boolean;
  readonly http?: { readonly port: number; readonly token?: string };
}

export function parseServeFlags(values: {
  toolset?: string;
  http?: boolean;
  port?: string;
  token?: string;
  'allow-exec'?: boolean;
}): ServeFlags {
  const toolset = (values.toolset ?? 'all') as Toolset;
  if (!TOOLSETS.includes(toolset)) throw new Error(`--toolset must be ${TOOLSETS.join(', ')}, not "${toolset}"`);
  const allowExec = values['allow-exec'] === true || process.env.COLONY_ALLOW_EXEC === '1';
  if (toolset === 'runtime' && !allowExec) {
    throw new Error('--toolset runtime runs commands on the host: add --allow-exec');
  }
  const exec = allowExec ? { allowExec: true } : {};
  if (!values.http) {
    if (values.port !== undefined || values.token !== undefined) throw new Error('--port and --token need --http');
    return { toolset, ...exec };
  }
  // Digits only: Number() would read '' as 0 (a random port) and '0x1f90' or '1e3' as ports.
  const port =
    values.port === undefined ? DEFAULT_HTTP_PORT : /^\d{1,5}$/.test(values.port) ? Number(values.port) : Number.NaN;
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`--port must be 0-65535, not "${values.port}"`);
  return { toolset, ...exec, http: { port, ...(values.token ? { token: values.token } : {}) } };
}

const isPostgresUrl = (db: string | undefined): db is string => !!db && /^postgres(ql)?:\/\//i.test(db);

/**
 * The PostgreSQL URL a command line names, if any: `--db postgres://…`, or, with
 * neither --db nor --home given, `$COLONY_DATABASE_URL`. Undefined means a SQLite file.
 */
export function databaseUrlOf(
  values: { db?: string | undefined; home?: string | undefined },
  env: NodeJS.ProcessEnv = process.env,
): string | undefined {
  if (values.db !== undefined) return isPostgresUrl(values.db) ? values.db : undefined;
  const fromEnv = env.COLONY_DATABASE_URL?.trim();
  return values.home === undefined && isPostgresUrl(fromEnv) ? fromEnv : undefined;
}

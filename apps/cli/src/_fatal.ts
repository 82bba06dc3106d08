/**
 * @module fatal
 * How cli.ts reports an error it caught: one line, except when the native SQLite
 * module does not load under this Node (another ABI: it was built for another Node
 * version), where the whole message matters and a rebuild command is added.
 */
import { stripAnsi } from './_color';

/** The rebuild advice for a native module load failure, or undefined when `error` is not one. */
export function nativeModuleFailure(error: unknown): { message: string; fix: string } | undefined {
  const e = error as { code?: unknown; message?: unknown } | null;
  const message = typeof e?.message === 'string' ? e.message : '';
  const abi = message.includes('NODE_MODULE_VERSION') || message.includes('was compiled against a different Node.js');
  if (e?.code !== 'ERR_DLOPEN_FAILED' && !abi) return undefined;
  const pkg = /'?([^'\s]*node_modules\/better-sqlite3)\//.exec(message)?.[1];
  const fix = pkg
    ? `rebuild it for this Node (${process.version}): cd '${pkg}' && npm run install`
    : `rebuild better-sqlite3 for this Node (${process.version}): npm rebuild better-sqlite3 in the folder colony was installed from`;
  return { message: message.trim(), fix };
}

/** The lines cli.ts prints on stderr for an error (each prefixed `colony: `). */
export function fatalLines(error: unknown): string[] {
  const native = nativeModuleFailure(error);
  if (native) return [...native.message.split('\n'), native.fix];
  const message = error instanceof Error ? error.message : String(error);
  return [stripAnsi(message).split('\n')[0] ?? ''];
}

/**
 * Test harness: a real colony MCP server as an OS process, driven by the real MCP SDK
 * client over stdio.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ListRootsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll } from 'vitest';
import { dbFor } from './_backend';

export const REPO_ROOT = fileURLToPath(new URL('../../..', import.meta.url));
export const SERVER_MAIN = join(REPO_ROOT, 'apps/mcp-server/dist/main.js');

const made: string[] = [];

/** A fresh temp folder, removed when the test file ends. */
export function tempDir(prefix = 'colony-mcp-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

// Registered at import, before the file's own hooks: after hooks run in reverse order, so
// the file has closed its servers by then. Best effort: a folder that will not go stays.
afterAll(() => {
  for (const dir of made.splice(0)) {
    try {
      rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
    } catch {}
  }
});

export interface CallResult {
  readonly isError: boolean;
  // biome-ignore lint/suspicious/noExplicitAny: tool payloads are asserted field by field
  readonly payload: any;
  readonly text: string;
}

export interface Server {
  readonly client: Client;
  call(name: string, args?: Record<string, unknown>): Promise<CallResult>;
  stderr(): string;
  close(): Promise<void>;
}

export interface StartOptions {
  readonly db: string;
  readonly home?: string;
  readonly toolset?: 'core' | 'all' | 'framework';
  /** More command-line flags (e.g. `--allow-write`). */
  readonly flags?: readonly string[];
  /** `pnpm` runs `pnpm colony mcp` from the checkout; `node` runs the colony-mcp binary. */
  readonly via?: 'pnpm' | 'node';
  readonly env?: Record<string, string>;
  /** A file whose epoch-ms content is the server's clock (see `setClock`). */
  readonly clockFile?: string;
  /**
   * `--root` folders the file tools may work under. Default: the system temp folder,
   * where tests make their repositories; `false` for none (the server's own default).
   */
  readonly roots?: readonly string[] | false;
  /**
   * The roots the client declares (the roots capability; answered to `roots/list`).
   * A function may change them between calls (then send `notifications/roots/list_changed`).
   */
  readonly clientRoots?: () => string[];
}

export async function startServer(options: StartOptions): Promise<Server> {
  const flags = [
    '--db',
    dbFor(options.db),
    ...(options.toolset ? ['--toolset', options.toolset] : []),
    ...(options.roots === false ? [] : (options.roots ?? [tmpdir()]).flatMap((root) => ['--root', root])),
    ...(options.flags ?? []),
  ];
  const [command, args] =
    options.via === 'pnpm' ? ['pnpm', ['colony', 'mcp', ...flags]] : [process.execPath, [SERVER_MAIN, ...flags]];
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
  Object.assign(env, { COLONY_HOME: options.home ?? tempDir('colony-home-') }, options.env ?? {});
  if (options.clockFile) env.COLONY_CLOCK_FILE = options.clockFile;
  const transport = new StdioClientTransport({ command, args, cwd: REPO_ROOT, env, stderr: 'pipe' });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const client = new Client(
    { name: 'colony-test', version: '0.0.0' },
    options.clientRoots ? { capabilities: { roots: { listChanged: true } } } : {},
  );
  const declared = options.clientRoots;
  if (declared) {
    client.setRequestHandler(ListRootsRequestSchema, async () => ({
      roots: declared().map((dir) => ({ uri: pathToFileURL(dir).href })),
    }));
  }
  await client.connect(transport);
  return {
    client,
    async call(name, args = {}) {
      const result = await client.callTool({ name, arguments: args });
      const content = result.content as Array<{ type: string; text: string }>;
      const text = content[0]?.text ?? '';
      return { isError: result.isError === true, payload: JSON.parse(text), text };
    },
    stderr: () => stderr,
    close: () => client.close(),
  };
}

/**
 * Servers started for one test file, all closed by `closeAll` (call it in `afterEach`);
 * a server a test already closed itself is passed over. Without `home`, each server gets
 * a fresh data home.
 */
export function serverFleet(): {
  start(db: string, home?: string, options?: Omit<StartOptions, 'db' | 'home'>): Promise<Server>;
  closeAll(): Promise<void>;
} {
  const servers: Server[] = [];
  return {
    async start(db, home, options = {}) {
      const server = await startServer({ ...options, db, home });
      servers.push(server);
      return server;
    },
    closeAll: async () => {
      await Promise.all(servers.splice(0).map((s) => s.close().catch(() => {})));
    },
  };
}

/** Sets the clock of every server started with this `clockFile`, from the next call on. */
export function setClock(clockFile: string, ms: number): void {
  writeFileSync(clockFile, String(ms));
}

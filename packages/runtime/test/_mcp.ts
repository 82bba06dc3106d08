/** MCP client test helpers: colony's built MCP server over Streamable HTTP, and process checks. */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = fileURLToPath(new URL('../../..', import.meta.url));
/** colony's MCP server binary (apps/mcp-server, built by `pnpm build`). */
export const COLONY_MCP = join(REPO_ROOT, 'apps/mcp-server/dist/main.js');
export const ECHO_SERVER = fileURLToPath(new URL('./fixtures/echo-server.mjs', import.meta.url));

export function tempHome(prefix = 'colony-mcp-client-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** `${name}`: a reference to an environment variable in MCP settings. */
export const ref = (name: string): string => `\${${name}}`;

/** Whether a process id is still alive. */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

export interface HttpColony {
  readonly url: string;
  stop(): Promise<void>;
}

/** `colony-mcp --http --port 0 --token <token>` on 127.0.0.1, resolved once it announces its URL. */
export async function startHttpColony(token: string): Promise<HttpColony> {
  const home = tempHome('colony-mcp-http-');
  const child: ChildProcess = spawn(
    process.execPath,
    [COLONY_MCP, '--db', join(home, 'colony.db'), '--http', '--port', '0', '--token', token],
    { env: { ...process.env, COLONY_HOME: home }, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  const url = await new Promise<string>((resolve, reject) => {
    let err = '';
    const timer = setTimeout(() => reject(new Error(`no URL announced: ${err}`)), 15_000);
    child.stderr?.on('data', (chunk: Buffer) => {
      err += chunk.toString();
      const m = /on (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(err);
      if (m?.[1]) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
    child.once('exit', (code) => reject(new Error(`server exited ${code}: ${err}`)));
  });
  return {
    url,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

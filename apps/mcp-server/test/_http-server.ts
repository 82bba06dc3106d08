/** A built `colony-mcp --http` server process on a free loopback port, for tests that speak raw HTTP. */
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { dbFor } from './_backend';
import { SERVER_MAIN, tempDir } from './_harness';

export interface HttpServer {
  readonly child: ChildProcess;
  readonly port: number;
  readonly url: string;
  stop(): Promise<void>;
}

export async function startHttpServer(token: string, prefix = 'colony-http-'): Promise<HttpServer> {
  const home = tempDir(prefix);
  const child = spawn(
    process.execPath,
    [SERVER_MAIN, '--db', dbFor(join(home, 'colony.db')), '--http', '--port', '0', '--token', token],
    { env: { ...process.env, COLONY_HOME: home }, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  const url = await announcedUrl(child);
  return {
    child,
    port: Number(new URL(url).port),
    url,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** The endpoint URL a starting server logs to stderr (it exits with the log if it fails). */
export function announcedUrl(child: ChildProcess): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    let err = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      err += chunk.toString();
      const m = /on (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(err);
      if (m?.[1]) resolve(m[1]);
    });
    child.once('exit', (code) => reject(new Error(`server exited ${code}: ${err}`)));
  });
}

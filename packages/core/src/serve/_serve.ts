/**
 * @module serve/serve
 * Opens colony and serves its registry over stdio or Streamable HTTP until the client
 * goes away or the process is told to stop; the store is closed on the way out.
 */

import type { Toolset } from '@swarm/tools';
import { type HttpHandle, serveHttp, serveStdio } from '@swarm/tools/mcp';
import pkg from '../../package.json' with { type: 'json' };
import type { Colony } from '../open-colony';
import { resolveHttpToken } from './_token';

const INSTRUCTIONS =
  'colony: shared memory and task threads for coding agents. Search memory before work and hydrate only chosen ids with get_observations; post decisions and blockers to your task thread; claim files with task_claim_file before editing.';

export interface ServeOptions {
  readonly colony: Colony;
  readonly toolset?: Toolset;
  /** Serve Streamable HTTP on 127.0.0.1 instead of stdio. */
  readonly http?: { readonly port: number; readonly token?: string };
  /**
   * Where to say what is happening (stderr by default; never stdout, which is the wire).
   * Warnings of degraded parts reach the caller through openColony's onWarning.
   */
  readonly log?: (line: string) => void;
}

export interface ServeHandle {
  /** The HTTP endpoint, when serving HTTP. */
  readonly url?: string;
  readonly token?: string;
  /** Resolves when serving has stopped and the store is closed. */
  readonly done: Promise<void>;
  close(): Promise<void>;
}

export async function serveColony(options: ServeOptions): Promise<ServeHandle> {
  const { colony } = options;
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const base = {
    registry: colony.registry,
    toolset: options.toolset ?? 'all',
    version: pkg.version,
    instructions: INSTRUCTIONS,
  };

  if (options.http) {
    const token = resolveHttpToken(colony.home, options.http.token);
    const handle: HttpHandle = await serveHttp({ ...base, port: options.http.port, token });
    log(`colony: MCP (Streamable HTTP) on ${handle.url}; send "Authorization: Bearer <token>"`);
    let finish!: () => void;
    const done = new Promise<void>((resolve) => {
      finish = resolve;
    });
    const close = async () => {
      await handle.close();
      colony.close();
      finish();
    };
    return { url: handle.url, token, done, close };
  }

  const handle = await serveStdio(base);
  const done = handle.closed.then(() => colony.close());
  return {
    done,
    close: async () => {
      await handle.close();
      await done;
    },
  };
}

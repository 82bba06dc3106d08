/**
 * The sandbox tests' gate and helpers. They run wherever bubblewrap works; where it does
 * not, they are skipped with the detector's reason, except under CI=true, where the
 * set-up installs bubblewrap (scripts/install-system-packages.sh) and a missing sandbox
 * must fail the run rather than hide.
 */
import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { detectSandbox } from '../src/index';

export const SANDBOX = detectSandbox();
export const SKIP_SANDBOX = SANDBOX.kind !== 'bwrap' && process.env.CI !== 'true';
if (SKIP_SANDBOX) console.warn(`sandbox tests skipped: ${SANDBOX.reason}`);

/** A TCP server on 127.0.0.1 that answers `pong` and closes; `close()` ends it. */
export async function pongServer(): Promise<{ port: number; server: Server }> {
  const server = createServer((socket) => socket.end('pong'));
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  return { port: address.port, server };
}

/**
 * A Node the sandbox can see: its /tmp is private, so a Node under /tmp (test:lts keeps
 * Node 22 and 24 in the checkout's node_modules, and a checkout may live in /tmp) is
 * replaced by the system's.
 */
export const SANDBOX_NODE =
  process.execPath.startsWith('/tmp/') && existsSync('/usr/bin/node') ? '/usr/bin/node' : process.execPath;

/** A shell command that connects to 127.0.0.1:port with node and prints what it read, or the error code. */
export function connectCommand(port: number): string {
  const script = `require('net').connect(${port},'127.0.0.1').on('data',d=>{console.log(String(d));process.exit(0)}).on('error',e=>{console.log(e.code);process.exit(3)})`;
  return `'${SANDBOX_NODE}' -e "${script}"`;
}

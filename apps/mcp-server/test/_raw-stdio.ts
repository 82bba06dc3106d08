/** A server process spoken to in raw JSON-RPC lines over stdio (no SDK client in between). */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';

export type Message = Record<string, unknown>;

/**
 * A server process spoken to in raw JSON-RPC lines. `answer`, when given, replies to the
 * server's own requests (such as roots/list): its value is the reply's `result` or `error` part.
 */
export function rawServer(
  args: readonly string[],
  home: string,
  env: NodeJS.ProcessEnv = {},
  answer?: (request: Message) => Message,
) {
  const child: ChildProcessWithoutNullStreams = spawn(process.execPath, [...args, '--home', home], {
    env: { ...process.env, COLONY_HOME: home, ...env },
  });
  const lines: Message[] = [];
  let waiting: Array<() => void> = [];
  let buffer = '';
  child.stdout.on('data', (chunk: Buffer) => {
    buffer += chunk.toString();
    for (let n = buffer.indexOf('\n'); n !== -1; n = buffer.indexOf('\n')) {
      const line = JSON.parse(buffer.slice(0, n)) as Message;
      buffer = buffer.slice(n + 1);
      if (answer && 'method' in line && 'id' in line) {
        child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: line.id, ...answer(line) })}\n`);
      }
      lines.push(line);
    }
    for (const wake of waiting.splice(0)) wake();
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  let nextId = 1;
  return {
    child,
    stderr: () => stderr,
    async request(method: string, params?: Message): Promise<Message> {
      const id = nextId++;
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, ...(params ? { params } : {}) })}\n`);
      for (;;) {
        const found = lines.find((l) => l.id === id && !('method' in l));
        if (found) return found;
        await new Promise<void>((wake) => waiting.push(wake));
      }
    },
    notify(method: string) {
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method })}\n`);
    },
    async stop() {
      waiting = [];
      child.stdin.end();
      if (child.exitCode === null) await new Promise((resolve) => child.once('exit', resolve));
    },
  };
}

/** Polls `ok` every 20 ms for up to `ms` (10 s by default); throws when it never holds. */
export async function until(ok: () => boolean, ms = 10_000): Promise<void> {
  for (let waited = 0; !ok(); waited += 20) {
    if (waited > ms) throw new Error(`timed out after ${ms} ms waiting`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

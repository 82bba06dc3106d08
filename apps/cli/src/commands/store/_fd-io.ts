/**
 * @module store/fd-io
 * Synchronous line I/O on a file descriptor. An export runs inside one read
 * transaction and an import inside one write transaction, and both are synchronous
 * (better-sqlite3), so their lines are written and read with blocking calls: a pipe
 * that answers EAGAIN (a non-blocking stdin or stdout) is waited on and retried.
 */
import { readSync, writeSync } from 'node:fs';

const CHUNK = 1 << 16;
const pause = new Int32Array(new SharedArrayBuffer(4));

function retrying<T>(fn: () => T): T {
  for (;;) {
    try {
      return fn();
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') throw error;
      Atomics.wait(pause, 0, 0, 5);
    }
  }
}

/** A buffered writer: `write` collects, `flush` writes everything out. */
export function fdWriter(fd: number): { write(text: string): void; flush(): void } {
  let parts: string[] = [];
  let size = 0;
  const flush = () => {
    let data = Buffer.from(parts.join(''), 'utf8');
    parts = [];
    size = 0;
    while (data.length > 0) data = data.subarray(retrying(() => writeSync(fd, data)));
  };
  return {
    write(text) {
      parts.push(text);
      size += text.length;
      if (size >= CHUNK) flush();
    },
    flush,
  };
}

/** The lines of what `fd` reads until end of file, without their newlines (a last line without one too). */
export function* fdLines(fd: number): Generator<string> {
  const buffer = Buffer.alloc(CHUNK);
  let pending: Buffer[] = [];
  for (;;) {
    const n = retrying(() => readSync(fd, buffer, 0, CHUNK, null));
    if (n === 0) break;
    let chunk = buffer.subarray(0, n);
    for (let at = chunk.indexOf(0x0a); at >= 0; at = chunk.indexOf(0x0a)) {
      pending.push(chunk.subarray(0, at));
      yield Buffer.concat(pending).toString('utf8');
      pending = [];
      chunk = chunk.subarray(at + 1);
    }
    if (chunk.length > 0) pending.push(Buffer.from(chunk));
  }
  if (pending.length > 0) yield Buffer.concat(pending).toString('utf8');
}

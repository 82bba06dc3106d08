/**
 * @module token-answers
 * The file a counting child appends its answers to (one JSON line each), read by the
 * parent at its own offset, synchronously. Private to this process: created exclusively
 * in the temporary directory with mode 0600, and unlinked as soon as the child holds it,
 * by both processes (where the OS allows unlinking an open file; elsewhere on close).
 */
import { closeSync, openSync, readSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface AnswerFile {
  readonly fd: number;
  readonly path: string;
  /** The child has the file: unlink it now where the OS allows it. */
  spawned(): void;
  /** The complete lines appended since the last read, parsed. */
  read(): unknown[];
  close(): void;
}

let files = 0;

export function answerFile(): AnswerFile | undefined {
  const path = join(tmpdir(), `colony-tokens-${process.pid}-${Date.now().toString(36)}-${++files}.jsonl`);
  let fd: number;
  try {
    fd = openSync(path, 'ax+', 0o600);
  } catch {
    return undefined;
  }
  const buffer = Buffer.alloc(64 * 1024);
  let offset = 0;
  let rest = '';
  let linked = true;
  let open = true;
  const unlink = () => {
    if (!linked) return;
    try {
      unlinkSync(path);
      linked = false;
    } catch {}
  };
  return {
    fd,
    path,
    spawned: () => {
      if (process.platform !== 'win32') unlink();
    },
    read() {
      if (!open) return [];
      for (
        let n = readSync(fd, buffer, 0, buffer.length, offset);
        n > 0;
        n = readSync(fd, buffer, 0, buffer.length, offset)
      ) {
        offset += n;
        rest += buffer.toString('utf8', 0, n);
      }
      const end = rest.lastIndexOf('\n');
      if (end < 0) return [];
      const lines = rest.slice(0, end).split('\n');
      rest = rest.slice(end + 1);
      return lines.map((line) => JSON.parse(line));
    },
    close() {
      if (!open) return;
      open = false;
      closeSync(fd);
      unlink();
    },
  };
}

/**
 * @module swarm/tui/tail
 * The last lines of a log file, reading only its end (a long session's log can be large).
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';

/** Up to `lines` last lines of `path` (read from its last `maxBytes`); [] when it does not exist. */
export function tailLines(path: string, lines: number, maxBytes = 16_384): string[] {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return [];
  }
  try {
    const size = fstatSync(fd).size;
    const length = Math.min(size, maxBytes);
    const buffer = Buffer.alloc(length);
    readSync(fd, buffer, 0, length, size - length);
    const all = buffer.toString('utf8').split('\n');
    if (length < size) all.shift(); // a partial first line
    if (all.at(-1) === '') all.pop();
    return all.slice(-lines);
  } finally {
    closeSync(fd);
  }
}

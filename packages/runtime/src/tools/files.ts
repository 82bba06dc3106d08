/**
 * @module tools/files
 * The file tools agents already know, on the agent's worktree: read { path, offset?,
 * limit? } (numbered lines, 1-based offset), write { path, content } (creates folders),
 * edit { path, old_string, new_string, replace_all? } (an exact match, unique unless
 * replace_all). Every path goes through `confine`.
 */
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { confine } from './_confine.js';

const MAX_READ_LINES = 2000;
const MAX_LINE_CHARS = 2000;
const MAX_FILE_BYTES = 5 * 1024 * 1024;

export class ToolInputError extends Error {}

export function readTool(worktree: string, input: { path: string; offset?: number; limit?: number }): string {
  const { absolute, relative } = confine(worktree, input.path);
  if (!existsSync(absolute)) throw new ToolInputError(`file not found: ${relative}`);
  const stat = statSync(absolute);
  if (stat.isDirectory()) throw new ToolInputError(`${relative} is a directory (use glob)`);
  if (stat.size > MAX_FILE_BYTES) throw new ToolInputError(`${relative} is too large (${stat.size} bytes)`);
  const lines = readFileSync(absolute, 'utf8').split('\n');
  if (lines.at(-1) === '') lines.pop();
  const start = Math.max(1, input.offset ?? 1);
  const count = Math.min(input.limit ?? MAX_READ_LINES, MAX_READ_LINES);
  const slice = lines.slice(start - 1, start - 1 + count);
  if (slice.length === 0)
    return lines.length === 0 ? `${relative} is empty` : `no lines from ${start} (${lines.length} lines)`;
  const width = String(start + slice.length - 1).length;
  const body = slice
    .map(
      (line, i) =>
        `${String(start + i).padStart(width)}\t${line.length > MAX_LINE_CHARS ? `${line.slice(0, MAX_LINE_CHARS)}...` : line}`,
    )
    .join('\n');
  const more =
    start - 1 + slice.length < lines.length
      ? `\n(${lines.length} lines; continue with offset ${start + slice.length})`
      : '';
  return body + more;
}

export function writeTool(
  worktree: string,
  input: { path: string; content: string },
): { relative: string; text: string } {
  const { absolute, relative } = confine(worktree, input.path);
  if (existsSync(absolute) && statSync(absolute).isDirectory()) throw new ToolInputError(`${relative} is a directory`);
  mkdirSync(dirname(absolute), { recursive: true });
  writeFileSync(absolute, input.content);
  return { relative, text: `wrote ${Buffer.byteLength(input.content)} bytes to ${relative}` };
}

export function editTool(
  worktree: string,
  input: { path: string; old_string: string; new_string: string; replace_all?: boolean },
): { relative: string; text: string } {
  const { absolute, relative } = confine(worktree, input.path);
  if (!existsSync(absolute)) throw new ToolInputError(`file not found: ${relative}`);
  if (input.old_string === '') throw new ToolInputError('old_string must not be empty');
  if (input.old_string === input.new_string) throw new ToolInputError('old_string and new_string are the same');
  const text = readFileSync(absolute, 'utf8');
  const count = text.split(input.old_string).length - 1;
  if (count === 0) throw new ToolInputError(`old_string not found in ${relative}`);
  if (count > 1 && !input.replace_all) {
    throw new ToolInputError(`old_string occurs ${count} times in ${relative}: give more context or set replace_all`);
  }
  const next = input.replace_all
    ? text.split(input.old_string).join(input.new_string)
    : text.replace(input.old_string, () => input.new_string);
  writeFileSync(absolute, next);
  return { relative, text: `replaced ${input.replace_all ? count : 1} occurrence(s) in ${relative}` };
}

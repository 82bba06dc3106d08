/**
 * @module install/config-file
 * Reading and writing the IDEs' own config files without ever clobbering them: a
 * file that does not parse is refused with InstallError and left as it is; writes go
 * to a temporary file in the same folder and are renamed over the target (a symlinked
 * config is written through to the file it points at), keeping the file's mode.
 */

import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';

/** A config file colony refuses to touch, or could not write: one line, nothing written. */
export class InstallError extends Error {
  override readonly name = 'InstallError';
}

export interface ConfigText {
  readonly path: string;
  readonly exists: boolean;
  /** The file's text; '' when it does not exist. */
  readonly text: string;
}

export function readConfigText(path: string): ConfigText {
  if (!existsSync(path)) return { path, exists: false, text: '' };
  try {
    return { path, exists: true, text: readFileSync(path, 'utf8') };
  } catch (error) {
    throw new InstallError(`cannot read ${path}: ${(error as Error).message}`);
  }
}

/** A JSON config whose top level is an object; an empty or missing file reads as {}. */
export function parseJsonObject(file: ConfigText): Record<string, unknown> {
  if (file.text.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(file.text);
  } catch (error) {
    throw new InstallError(
      `${file.path} is not valid JSON (${(error as Error).message}); fix or move it, it was left untouched`,
    );
  }
  if (!isPlainObject(value)) {
    throw new InstallError(`${file.path} does not hold a JSON object; fix or move it, it was left untouched`);
  }
  return value;
}

/**
 * JSON with the file's own indentation (two spaces for a new file), ending with a
 * newline unless the file had text that did not (Claude Code writes `~/.claude.json`
 * without one), so a removal restores an IDE-written file byte for byte.
 */
export function renderJson(value: unknown, previous: string): string {
  const indent = /^([ \t]+)"/m.exec(previous)?.[1] ?? '  ';
  const newline = previous === '' || previous.endsWith('\n') ? '\n' : '';
  return `${JSON.stringify(value, null, indent)}${newline}`;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Removes a config file colony's entries were all that was left of (symlinks: the file they point at stays). */
export function removeConfigFile(path: string): void {
  try {
    rmSync(path, { force: true });
  } catch (error) {
    throw new InstallError(`cannot remove ${path}: ${(error as Error).message}`);
  }
}

/** Writes `text` to `path` atomically (temp file + rename), creating folders as needed. */
export function writeConfigAtomically(path: string, text: string): void {
  const target = existsSync(path) ? realpathSync(path) : path;
  const mode = existsSync(target) ? statSync(target).mode & 0o777 : 0o600;
  const temp = join(
    dirname(target),
    `.${basename(target)}.colony-${process.pid}-${randomBytes(4).toString('hex')}.tmp`,
  );
  try {
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(temp, text, { mode });
    chmodSync(temp, mode);
    renameSync(temp, target);
  } catch (error) {
    rmSync(temp, { force: true });
    throw new InstallError(`cannot write ${target}: ${(error as Error).message}`);
  }
}

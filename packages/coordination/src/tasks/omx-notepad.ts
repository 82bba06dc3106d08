/**
 * @module tasks/omx-notepad
 * The OMX bridge's tiny resume pointer: one line appended to <repo_root>/.omx/notepad.md.
 * Never the note itself: the full content lives in colony. The pointer is a file write
 * under a caller-given root, so it is written only under a root the server allows; a
 * pointer refused or failed is a reason for a warning, never a failed note.
 */
import { appendFileSync, mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { isColonyError } from '@swarm/tools';
import { type FileRoots, requireRoot } from '../roots';

export interface NotepadPointer {
  readonly branch: string;
  readonly task: string;
  readonly blocker: string;
  readonly next: string;
  readonly evidence: string;
  readonly colony_observation_id: number | null;
}

export function pointerLine(p: NotepadPointer): string {
  const clean = (v: string) => v.replace(/[\r\n;]+/g, ' ').trim() || 'none';
  return [
    `branch=${clean(p.branch)}`,
    `task=${clean(p.task)}`,
    `blocker=${clean(p.blocker)}`,
    `next=${clean(p.next)}`,
    `evidence=${clean(p.evidence)}`,
    `colony_observation_id=${p.colony_observation_id ?? 'none'}`,
  ].join('; ');
}

/**
 * Appends the pointer line; returns the notepad path. The repository root must be an
 * existing directory: colony creates `.omx/` inside a repo, never a repo. Throws on I/O errors.
 */
export function appendNotepadPointer(repoRoot: string, pointer: NotepadPointer): string {
  if (!statSync(repoRoot, { throwIfNoEntry: false })?.isDirectory()) {
    throw new Error(`repo_root ${repoRoot} is not an existing directory`);
  }
  const dir = join(repoRoot, '.omx');
  // One level, not { recursive: true }: that spins forever where mkdir answers ENOENT
  // under an existing parent (repo_root "/proc").
  try {
    mkdirSync(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const path = join(dir, 'notepad.md');
  appendFileSync(path, `${pointerLine(pointer)}\n`);
  return path;
}

/**
 * Appends the pointer under `repoRoot` when the server allows that root: the path
 * written, or why not (a refusal names its code, e.g. `ROOT_NOT_ALLOWED: ...`).
 */
export function writeNotepadPointer(
  roots: FileRoots | undefined,
  repoRoot: string,
  pointer: NotepadPointer,
): { readonly path: string } | { readonly failure: string } {
  try {
    requireRoot(roots, repoRoot);
    return { path: appendNotepadPointer(repoRoot, pointer) };
  } catch (error) {
    return { failure: isColonyError(error) ? `${error.code}: ${error.message}` : (error as Error).message };
  }
}

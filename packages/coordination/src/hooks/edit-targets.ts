/**
 * @module hooks/edit-targets
 * Which files a file-editing tool call touches, as absolute paths. Claude Code's
 * Edit/MultiEdit/Write name one file in `tool_input.file_path` (NotebookEdit in
 * `notebook_path`); Codex's apply_patch sends the patch text in `tool_input.command`
 * (or `input`/`patch`), whose `*** Add File:`, `*** Update File:`, `*** Delete File:`
 * and `*** Move to:` lines name every file it changes. Relative paths are resolved
 * against the hook's cwd, as the IDE resolves them.
 */
import { isAbsolute, resolve } from 'node:path';
import { isFileEditTool } from '../edits';

const PATH_FIELDS = ['file_path', 'notebook_path', 'path', 'filePath', 'filename'] as const;
const PATCH_FIELDS = ['command', 'input', 'patch'] as const;
const PATCH_FILE_LINE = /^\*\*\* (?:Add File|Update File|Delete File|Move to): (.+)$/;

/** The files a patch in Codex's apply_patch format names, in order, without repeats. */
export function patchFiles(patch: string): string[] {
  const files: string[] = [];
  for (const line of patch.split(/\r?\n/)) {
    const file = PATCH_FILE_LINE.exec(line.trimEnd())?.[1]?.trim();
    if (file && !files.includes(file)) files.push(file);
  }
  return files;
}

/**
 * The absolute paths a tool call edits; empty for tools that do not edit files (or
 * name none colony can read). Never throws: a hook must not fail on an odd input.
 */
export function editTargets(toolName: string, toolInput: Record<string, unknown>, cwd: string): string[] {
  if (!isFileEditTool(toolName)) return [];
  const named: string[] = [];
  for (const field of PATH_FIELDS) {
    const value = toolInput[field];
    if (typeof value === 'string' && value.trim() !== '') named.push(value.trim());
  }
  if (named.length === 0) {
    for (const field of PATCH_FIELDS) {
      const value = toolInput[field];
      if (typeof value === 'string') named.push(...patchFiles(value));
    }
  }
  const absolute = named.map((file) => (isAbsolute(file) ? resolve(file) : resolve(cwd, file)));
  return [...new Set(absolute)];
}

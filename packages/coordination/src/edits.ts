/**
 * @module edits
 * The record of a file edit, as the post-tool-use hook writes it and the drift check
 * reads it: an observation of kind `edit` on the task, metadata { tool, file_path }
 * with file_path relative to the task's repo_root. An edit also refreshes the
 * session's active claim on that file, so a claim stays fresh while its file is worked on.
 */
import { type Task, touchActiveClaim } from '@swarm/storage';
import { appendObservation, type DomainContext } from './context';
import { normalizeRepoPath } from './repo-paths';

export const EDIT_KIND = 'edit';

/** Tool names (Claude Code, Codex, Cursor, colony's worker) that change a file's content. */
export const FILE_EDIT_TOOLS: ReadonlySet<string> = new Set([
  'Edit',
  'MultiEdit',
  'Write',
  'NotebookEdit',
  'apply_patch',
  'edit',
  'write',
  'write_file',
  'edit_file',
  'str_replace_based_edit_tool',
  'fs_write',
]);

export function isFileEditTool(toolName: string): boolean {
  return FILE_EDIT_TOOLS.has(toolName);
}

export interface EditRecord {
  readonly sessionId: string;
  readonly task: Task;
  readonly tool: string;
  /** Absolute or repo-relative; refused with PATH_OUTSIDE_REPO when outside the repository. */
  readonly filePath: string;
}

/**
 * Appends the edit observation and refreshes the editor's active claim on the file, if
 * any; call inside `store.write`. Returns the observation id and the normalised path.
 */
export async function recordEdit(ctx: DomainContext, edit: EditRecord): Promise<{ id: number; filePath: string }> {
  const filePath = normalizeRepoPath(edit.task.repoRoot, edit.filePath);
  const id = await appendObservation(ctx, {
    sessionId: edit.sessionId,
    taskId: edit.task.id,
    kind: EDIT_KIND,
    content: `${edit.tool} ${filePath}`,
    metadata: { tool: edit.tool, file_path: filePath },
  });
  await touchActiveClaim(ctx.store, edit.task.id, filePath, edit.sessionId, ctx.clock.now());
  return { id, filePath };
}

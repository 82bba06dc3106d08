/**
 * @module tools/_runtime
 * Argument pieces shared by the runtime tools (workspaces, exec_parallel, swarm_*).
 */
import { z } from 'zod';
import { text } from '../schemas';

/** A workspace: its absolute worktree path, or (with repo_root) its name, branch or `<swarm_id>/<task>`. */
export const workspaceId = text(4096);
export const workspaceIds = z.array(workspaceId).min(1).max(20);

/** Environment variables for the commands; values never reach the store, logs or responses. */
export const envVars = z.record(
  z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be an environment variable name'),
  z.string().max(65_536),
);

/** An environment with its values left out (names kept): what may be hashed or stored of it. */
export function envNames(env: Readonly<Record<string, string>> | undefined): string[] | undefined {
  return env === undefined ? undefined : Object.keys(env).sort();
}

/** A shell command (newlines allowed). */
export const shellCommand = z.string().min(1).max(100_000);

/** A folder relative to the worktree root; leaving the worktree is refused. */
export const workdir = text(4096);

/** Names a task, a branch and a folder: lower-case letters, digits, `-`, `_`. */
export const taskName = z.string().regex(/^[a-z0-9][a-z0-9_-]{0,62}$/, 'must match [a-z0-9][a-z0-9_-]{0,62}');

export const MERGE_STRATEGIES = ['sequential', 'branch-per-source', 'cherry-pick'] as const;
export const mergeStrategy = z.enum(MERGE_STRATEGIES);

export const RUNTIME_NOTES =
  'A runtime tool: it runs git and shell commands on the host, so it is served only with `colony mcp --allow-exec` ' +
  '(or `openColony({ allowExec: true })`); otherwise it answers EXEC_NOT_ALLOWED and runs nothing. Worktrees live ' +
  'under `<repo_root>/.colony/worktrees/` (excluded through info/exclude).';

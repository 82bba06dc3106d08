/**
 * @module layout
 * Where colony's worktrees live and what their branches are called, and how a
 * workspace id given by a caller is resolved:
 * - a swarm task: `<root>/.colony/worktrees/<swarm_id>/<task>` on `colony/<swarm_id>/<task>`;
 * - a forked workspace: `<root>/.colony/worktrees/<name>` on `colony/ws/<name>`.
 * A workspace id is the absolute path; its name, its branch or `<swarm_id>/<task>`
 * (relative to a repository) resolve too. Only colony-made worktrees resolve.
 */
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { COLONY_DIR, openRepo, type Repo } from './repo';
import { listWorktrees, type WorktreeInfo } from './worktrees';

export const WORKTREES_DIR = 'worktrees';
/** The recycled-worktree pool's folder under `worktrees/` (see pool.ts); never a workspace. */
export const POOL_DIR = '.pool';

export function worktreesRoot(repo: Repo): string {
  return join(repo.root, COLONY_DIR, WORKTREES_DIR);
}

export function swarmBranch(swarmId: string, task: string): string {
  return `colony/${swarmId}/${task}`;
}

export function swarmTaskLayout(repo: Repo, swarmId: string, task: string): { path: string; branch: string } {
  return { path: join(worktreesRoot(repo), swarmId, task), branch: swarmBranch(swarmId, task) };
}

export function workspaceLayout(repo: Repo, name: string): { path: string; branch: string } {
  return { path: join(worktreesRoot(repo), name), branch: `colony/ws/${name}` };
}

export function swarmLogFile(repo: Repo, swarmId: string, task: string): string {
  return join(repo.root, COLONY_DIR, 'logs', 'swarm', swarmId, `${task}.log`);
}

export interface Workspace {
  readonly workspace_id: string;
  /** `<name>` for a forked workspace, `<swarm_id>/<task>` for a swarm task. */
  readonly workspace_name: string;
  readonly branch: string | null;
  readonly head: string | null;
  readonly locked: boolean;
  readonly repo: Repo;
}

/** Colony-made worktrees of a repository (under `.colony/worktrees/`, the pool left out). */
export async function colonyWorktrees(repo: Repo): Promise<Workspace[]> {
  const base = worktreesRoot(repo);
  const pool = join(base, POOL_DIR);
  return (await listWorktrees(repo))
    .filter((w) => !w.main && isInside(base, w.path) && !isInside(pool, w.path))
    .map((w) => toWorkspace(repo, base, w));
}

function toWorkspace(repo: Repo, base: string, w: WorktreeInfo): Workspace {
  return {
    workspace_id: w.path,
    workspace_name: relative(base, w.path).split(sep).join('/'),
    branch: w.branch,
    head: w.head,
    locked: w.locked,
    repo,
  };
}

export function isInside(parent: string, child: string): boolean {
  const rel = relative(parent, child);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
}

/**
 * Resolves a workspace id: an absolute path (no repository needed), or with `repo`, a
 * name, a branch or `<swarm_id>/<task>`. Undefined when unknown.
 */
export async function resolveWorkspace(id: string, repo: Repo | null): Promise<Workspace | undefined> {
  if (isAbsolute(id)) {
    const path = resolve(id);
    let owner: Repo;
    try {
      owner = repo ?? (await openRepo(path));
    } catch {
      return undefined;
    }
    // A linked worktree's own top folder: find its main repository through the common dir.
    const main = owner.root === path ? { ...owner, root: resolve(owner.commonDir, '..') } : owner;
    return (await colonyWorktrees(main)).find((w) => w.workspace_id === path);
  }
  if (!repo) return undefined;
  const all = await colonyWorktrees(repo);
  return all.find((w) => w.workspace_name === id || w.branch === id);
}

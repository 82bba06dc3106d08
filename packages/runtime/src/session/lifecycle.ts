/**
 * @module session/lifecycle
 * The git side of a session (seed 003's start flow steps 2-7, shutdown steps 4-9,
 * recovery), on the git CLI through @swarm/worktree. Start: git >= 2.20, a branch
 * checked out (not detached), a clean tree or `--stash`, the stale-session check (a
 * live PID refuses, a dead one is recovered), the session id, the session files, one
 * locked worktree per agent at `.colony/worktrees/<agent>` on `colony/<id>/<agent>`.
 * Finish: auto-commit dirty worktrees, merge (or squash) in config order, supervisor
 * last, each branch all or nothing (a conflict is aborted, kept and reported), remove
 * and prune worktrees, delete the merged branches, remove the session files. Recovery
 * never deletes a branch holding commits not on the base.
 */
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import {
  autoCommit,
  colonyDir,
  createWorktree,
  deleteBranch,
  git,
  gitRaw,
  isMerged,
  listBranches,
  openRepo,
  type Repo,
  removeWorktree,
  withRepoLock,
} from '@swarm/worktree';
import { newSessionId } from './identity.js';
import {
  checkSession,
  removeSessionFiles,
  type SessionInfo,
  type StopMode,
  sessionPaths,
  writeSession,
} from './session-files.js';

export const AUTO_COMMIT_MESSAGE = 'swarm: auto-commit on stop';

export type SessionErrorCode = 'not_a_repo' | 'detached_head' | 'dirty_tree' | 'session_active' | 'git_too_old';

export class SessionError extends Error {
  constructor(
    readonly code: SessionErrorCode,
    message: string,
  ) {
    super(message);
  }
}

export function sessionBranch(sessionId: string, name: string): string {
  return `colony/${sessionId}/${name}`;
}

export function agentWorktree(root: string, name: string): string {
  return join(sessionPaths(root).worktrees, name);
}

export interface StartSessionOptions {
  readonly cwd: string;
  /** Agents in config order, the supervisor (when any) last. */
  readonly agents: readonly string[];
  readonly supervisor: string | null;
  readonly stash?: boolean;
  readonly init?: boolean;
  readonly now: number;
  readonly db_path: string;
  readonly pid: number;
  readonly log?: (line: string) => void;
}

export interface StartedSession {
  readonly repo: Repo;
  readonly info: SessionInfo;
  readonly worktrees: Readonly<Record<string, string>>;
  readonly recovered: RecoveryReport | null;
}

export async function startSession(options: StartSessionOptions): Promise<StartedSession> {
  const log = options.log ?? (() => undefined);
  if (options.init) await initRepo(options.cwd);
  let repo: Repo;
  try {
    repo = await openRepo(options.cwd);
  } catch (error) {
    const code = (error as { code?: string }).code === 'git_too_old' ? 'git_too_old' : 'not_a_repo';
    const hint = code === 'not_a_repo' ? ' (pass --init to make it one)' : '';
    throw new SessionError(code, `${(error as Error).message}${hint}`);
  }
  const branch = await gitRaw(['symbolic-ref', '--short', '-q', 'HEAD'], { cwd: repo.root });
  if (branch.code !== 0) throw new SessionError('detached_head', 'HEAD is detached: check out a branch first');
  const baseBranch = branch.stdout.trim();
  const check = checkSession(repo.root);
  if (check.state === 'active') {
    throw new SessionError('session_active', `session already active (${check.info.id}, pid ${check.pid})`);
  }
  let recovered: RecoveryReport | null = null;
  if (check.state === 'stale') {
    log(`recovering stale session ${check.info?.id ?? '(unknown)'} (pid ${check.pid ?? '?'} is gone)`);
    recovered = await recoverSession(repo.root, check.info);
  }
  colonyDir(repo);
  const dirty = (await git(['status', '--porcelain'], { cwd: repo.root })).trim();
  let stashed = false;
  if (dirty !== '') {
    if (!options.stash) {
      throw new SessionError('dirty_tree', 'working tree has uncommitted changes: commit them or pass --stash');
    }
    await git(['stash', 'push', '--include-untracked', '-m', 'swarm auto-stash'], { cwd: repo.root });
    stashed = true;
  }
  const id = newSessionId(options.now);
  const base = (await git(['rev-parse', 'HEAD'], { cwd: repo.root })).trim();
  const info: SessionInfo = {
    id,
    base_commit: base,
    base_branch: baseBranch,
    agents: options.agents,
    supervisor: options.supervisor,
    started_at: new Date(options.now).toISOString(),
    pid: options.pid,
    db_path: options.db_path,
    stashed,
  };
  writeSession(repo.root, info);
  mkdirSync(sessionPaths(repo.root).worktrees, { recursive: true });
  const worktrees: Record<string, string> = {};
  for (const name of options.agents) {
    const path = agentWorktree(repo.root, name);
    await createWorktree(repo, { path, branch: sessionBranch(id, name), base, lockReason: `colony session ${id}` });
    worktrees[name] = path;
  }
  return { repo, info, worktrees, recovered };
}

async function initRepo(cwd: string): Promise<void> {
  if ((await gitRaw(['rev-parse', '--git-dir'], { cwd })).code === 0) return;
  await git(['init', '--quiet'], { cwd });
  await git(['commit', '--quiet', '--allow-empty', '-m', 'Initial commit'], { cwd });
}

export interface AgentOutcome {
  readonly name: string;
  readonly branch: string;
  readonly outcome: 'merged' | 'squashed' | 'up_to_date' | 'conflict' | 'discarded' | 'error';
  readonly files?: readonly string[];
  readonly message?: string;
  readonly auto_committed: boolean;
  readonly branch_deleted: boolean;
}

export interface StopReport {
  readonly session_id: string;
  readonly mode: StopMode;
  readonly agents: readonly AgentOutcome[];
  readonly stash_restored: boolean | null;
}

export async function finishSession(root: string, info: SessionInfo, mode: StopMode): Promise<StopReport> {
  const repo = await openRepo(root);
  const committed = new Map<string, boolean>();
  for (const name of info.agents) committed.set(name, await commitIfDirty(agentWorktree(root, name)));
  const current = (await gitRaw(['symbolic-ref', '--short', '-q', 'HEAD'], { cwd: root })).stdout.trim();
  const results: AgentOutcome[] = [];
  for (const name of info.agents) {
    const branch = sessionBranch(info.id, name);
    const auto_committed = committed.get(name) ?? false;
    const exists = (await gitRaw(['rev-parse', '--verify', '-q', `refs/heads/${branch}`], { cwd: root })).code === 0;
    let outcome: Omit<AgentOutcome, 'branch_deleted' | 'auto_committed'>;
    if (!exists) outcome = { name, branch, outcome: 'error', message: 'branch not found' };
    else if (mode === 'discard') outcome = { name, branch, outcome: 'discarded' };
    else if (current !== info.base_branch) {
      outcome = { name, branch, outcome: 'error', message: `${info.base_branch} is not checked out (on ${current})` };
    } else outcome = await mergeOne(root, name, branch, mode);
    results.push({ ...outcome, auto_committed, branch_deleted: false });
  }
  await removeAll(repo, root, info);
  const final: AgentOutcome[] = [];
  for (const r of results) {
    const drop =
      r.outcome === 'discarded' || r.outcome === 'squashed' || r.outcome === 'merged' || r.outcome === 'up_to_date';
    const deleted = drop ? await deleteBranch(repo, r.branch) : false;
    final.push({ ...r, branch_deleted: deleted });
  }
  let stash_restored: boolean | null = null;
  if (info.stashed) stash_restored = (await gitRaw(['stash', 'pop'], { cwd: root })).code === 0;
  removeSessionFiles(root);
  return { session_id: info.id, mode, agents: final, stash_restored };
}

async function commitIfDirty(path: string): Promise<boolean> {
  if (!existsSync(path)) return false;
  try {
    return (await autoCommit(path, AUTO_COMMIT_MESSAGE)).committed;
  } catch {
    return false;
  }
}

async function mergeOne(
  root: string,
  name: string,
  branch: string,
  mode: 'merge' | 'squash',
): Promise<Omit<AgentOutcome, 'branch_deleted' | 'auto_committed'>> {
  if (await isMerged(root, branch, 'HEAD')) return { name, branch, outcome: 'up_to_date' };
  if (mode === 'merge') {
    const out = await gitRaw(['merge', '--no-ff', '--no-edit', '-m', `Merge agent: ${name}`, branch], { cwd: root });
    if (out.code === 0) return { name, branch, outcome: 'merged' };
    const files = await conflicted(root);
    await gitRaw(['merge', '--abort'], { cwd: root });
    return files.length
      ? { name, branch, outcome: 'conflict', files }
      : { name, branch, outcome: 'error', message: (out.stderr || out.stdout).trim().slice(-500) };
  }
  const out = await gitRaw(['merge', '--squash', branch], { cwd: root });
  if (out.code !== 0) {
    const files = await conflicted(root);
    await gitRaw(['reset', '--merge'], { cwd: root });
    return files.length
      ? { name, branch, outcome: 'conflict', files }
      : { name, branch, outcome: 'error', message: (out.stderr || out.stdout).trim().slice(-500) };
  }
  const commit = await gitRaw(['commit', '--quiet', '-m', `Squash agent: ${name}`], { cwd: root });
  if (commit.code !== 0) {
    await gitRaw(['reset', '--merge'], { cwd: root });
    return { name, branch, outcome: 'up_to_date' };
  }
  return { name, branch, outcome: 'squashed' };
}

async function conflicted(root: string): Promise<string[]> {
  const out = await gitRaw(['diff', '--name-only', '--diff-filter=U'], { cwd: root });
  return out.stdout.split('\n').filter((l) => l !== '');
}

async function removeAll(repo: Repo, root: string, info: SessionInfo | null): Promise<void> {
  const dir = sessionPaths(root).worktrees;
  const names = new Set([...(info?.agents ?? []), ...(existsSync(dir) ? readdirSync(dir) : [])]);
  for (const name of names) {
    await removeWorktree(repo, agentWorktree(root, name), { force: true }).catch(() => undefined);
  }
  await withRepoLock(repo.commonDir, () => gitRaw(['worktree', 'prune'], { cwd: root }));
}

export interface RecoveryReport {
  readonly session_id: string | null;
  readonly auto_committed: readonly string[];
  /** Branches kept: they hold commits not on the base. */
  readonly kept_branches: readonly string[];
  readonly deleted_branches: readonly string[];
}

/** A dead session: auto-commit, remove worktrees, delete only the branches with nothing new, remove files. */
export async function recoverSession(root: string, info: SessionInfo | null): Promise<RecoveryReport> {
  const repo = await openRepo(root);
  const dir = sessionPaths(root).worktrees;
  const names = new Set([...(info?.agents ?? []), ...(existsSync(dir) ? readdirSync(dir) : [])]);
  const auto_committed: string[] = [];
  for (const name of names) if (await commitIfDirty(agentWorktree(root, name))) auto_committed.push(name);
  await removeAll(repo, root, info);
  const kept: string[] = [];
  const deleted: string[] = [];
  if (info) {
    for (const branch of await listBranches(root, `colony/${info.id}/`)) {
      if (await isMerged(root, branch, info.base_commit)) {
        if (await deleteBranch(repo, branch)) deleted.push(branch);
      } else kept.push(branch);
    }
  }
  removeSessionFiles(root);
  return { session_id: info?.id ?? null, auto_committed, kept_branches: kept, deleted_branches: deleted };
}

/** Every session branch (`colony/<session>/<agent>`) of the repository. */
export async function listBranchesOf(root: string): Promise<string[]> {
  return (await listBranches(root, 'colony/')).filter((b) => /^colony\/\d{8}-[0-9a-f]{4}\//.test(b));
}

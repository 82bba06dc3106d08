/**
 * @module runtime/control
 * The commands that act on a running (or dead) session from another process: stop
 * (a stop request file + SIGTERM to the session runner, then waiting for it; a dead
 * session runner's session is finished from here), status, send/broadcast from the
 * operator, clean.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import {
  checkSession,
  finishSession,
  listBranchesOf,
  OPERATOR,
  processAlive,
  type RecoveryReport,
  readSession,
  recoverSession,
  type StopMode,
  type StopReport,
  sessionPaths,
  writeStopRequest,
} from '@swarm/runtime';
import { gitRaw, openRepo } from '@swarm/worktree';
import { connectColony } from '../connect-colony.js';
import { callerOf, sessionMailbox } from './_agents.js';
import { planCounts, readSessionStatus, type SwarmSessionStatus } from './_status.js';

export class SwarmControlError extends Error {}

export interface ControlOptions {
  readonly cwd: string;
  readonly home?: string;
  readonly dbPath?: string;
}

export async function repoRootOf(cwd: string): Promise<string> {
  try {
    return (await openRepo(cwd)).root;
  } catch (error) {
    throw new SwarmControlError((error as Error).message);
  }
}

export interface StopResult {
  readonly session_id: string;
  /** `session_runner` when the running process finished the session; `here` when this process did. */
  readonly finished_by: 'session_runner' | 'here';
  readonly report: StopReport | null;
}

export async function stopSwarm(
  options: ControlOptions & { mode: StopMode; timeoutMs?: number; now?: number },
): Promise<StopResult> {
  const root = await repoRootOf(options.cwd);
  const check = checkSession(root);
  if (check.state === 'none') throw new SwarmControlError('no active session');
  if (check.state === 'active') {
    writeStopRequest(root, options.mode, options.now ?? Date.now());
    try {
      process.kill(check.pid, 'SIGTERM');
    } catch {
      // already gone: finished below
    }
    const deadline = Date.now() + (options.timeoutMs ?? 60_000);
    const files = sessionPaths(root).session;
    // Done when the session runner has exited, or has removed the session files (its last step).
    while (Date.now() < deadline && processAlive(check.pid) && existsSync(files)) {
      await new Promise((r) => setTimeout(r, 100));
    }
    if (!existsSync(sessionPaths(root).session)) {
      return { session_id: check.info.id, finished_by: 'session_runner', report: null };
    }
    if (processAlive(check.pid)) {
      throw new SwarmControlError(
        `session runner (pid ${check.pid}) did not stop in time; run colony swarm stop again`,
      );
    }
  }
  const info = readSession(root);
  if (!info) {
    await recoverSession(root, null);
    throw new SwarmControlError('session files were unreadable: recovered (worktrees removed, branches kept)');
  }
  const report = await finishSession(root, info, options.mode);
  return { session_id: info.id, finished_by: 'here', report };
}

export async function swarmStatus(options: ControlOptions): Promise<SwarmSessionStatus> {
  const root = await repoRootOf(options.cwd);
  const base = readSessionStatus(root);
  const colony = await connectColony({
    ...(options.home ? { home: options.home } : {}),
    ...(options.dbPath ? { dbPath: options.dbPath } : {}),
  });
  try {
    return { ...base, plans: await planCounts(callerOf(colony), root) };
  } finally {
    await colony.close();
  }
}

/** Posts the operator's message to one agent, or to every agent of the session (`to` null). */
export async function sendToAgents(
  options: ControlOptions & { to: string | null; body: string; urgent?: boolean },
): Promise<{ session_id: string; sent_to: string[] }> {
  const root = await repoRootOf(options.cwd);
  const info = readSession(root);
  if (!info) throw new SwarmControlError('no active session');
  const recipients = options.to === null ? [...info.agents] : [options.to];
  for (const name of recipients) {
    if (!info.agents.includes(name)) {
      throw new SwarmControlError(`unknown agent ${name}; agents: ${info.agents.join(', ')}`);
    }
  }
  const colony = await connectColony({
    ...(options.home ? { home: options.home } : {}),
    ...(options.dbPath ? { dbPath: options.dbPath } : {}),
  });
  try {
    const mailbox = await sessionMailbox(colony, {
      repo_root: root,
      branch: info.base_branch,
      session_id: info.id,
      agents: info.agents,
    });
    for (const to of recipients) {
      await mailbox.send({ from: OPERATOR, to, body: options.body, urgent: options.urgent === true });
    }
    return { session_id: info.id, sent_to: recipients };
  } finally {
    await colony.close();
  }
}

export interface CleanResult {
  readonly recovered: RecoveryReport | null;
  readonly deleted_branches: readonly string[];
}

/** What `colony swarm clean` would remove (what its confirmation lists). */
export interface CleanPlan {
  /** The dead session whose files remain, if any. */
  readonly session_id: string | null;
  readonly worktrees: readonly string[];
  /** Every colony/<session>/<agent> branch; `unmerged` hold commits not on their base. */
  readonly branches: readonly string[];
}

export async function cleanPlan(options: ControlOptions): Promise<CleanPlan> {
  const root = await repoRootOf(options.cwd);
  const check = checkSession(root);
  if (check.state === 'active') {
    throw new SwarmControlError(`session ${check.info.id} is running (pid ${check.pid}): stop it first`);
  }
  const dir = sessionPaths(root).worktrees;
  return {
    session_id: check.state === 'stale' ? (check.info?.id ?? null) : null,
    worktrees: existsSync(dir) ? readdirSync(dir).map((name) => join(dir, name)) : [],
    branches: await listBranchesOf(root),
  };
}

/**
 * Clears stale swarm artifacts (seed 003 `swarm clean`): a dead session's worktrees
 * (dirty ones auto-committed first) and files, then every colony/<session>/* branch,
 * merged or not. The CLI confirms before calling this unless --force.
 */
export async function cleanSwarm(options: ControlOptions): Promise<CleanResult> {
  const root = await repoRootOf(options.cwd);
  const check = checkSession(root);
  if (check.state === 'active') {
    throw new SwarmControlError(`session ${check.info.id} is running (pid ${check.pid}): stop it first`);
  }
  const recovered = await recoverSession(root, check.state === 'stale' ? check.info : null);
  const deleted: string[] = [];
  for (const branch of await listBranchesOf(root)) {
    if ((await gitRaw(['branch', '-D', branch], { cwd: root })).code === 0) deleted.push(branch);
  }
  return { recovered, deleted_branches: deleted };
}

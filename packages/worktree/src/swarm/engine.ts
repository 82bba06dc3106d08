/**
 * @module swarm/engine
 * One swarm run: a worktree per task from `base_ref` (plus its dependencies' branches
 * merged in), the task's command run there, the worktree auto-committed, the
 * successful tasks merged into `merge_target`, the worktrees removed.
 *
 * `prepareSwarm` checks everything that can be refused (the DAG, the repository, git's
 * version, base_ref, merge_target and its cleanliness, each workdir) before anything
 * is created; `runPrepared` then runs. Tasks start as soon as all their dependencies
 * succeeded (not in waves), at most `max_parallel` at once; a task whose dependency
 * failed is skipped, transitively. Branches holding unmerged commits are never deleted.
 */
import { isAbsolute, relative, resolve } from 'node:path';
import { git } from '../_git';
import { runCommand } from '../exec';
import { swarmLogFile, swarmTaskLayout } from '../layout';
import { checkMergeTarget, mergeBranches, mergeIntoWorktree } from '../merge';
import { processStartTime } from '../process-groups';
import { secretRedactor } from '../redact';
import { openRepo, type Repo, resolveCommit } from '../repo';
import { autoCommit, createWorktree, deleteBranch, isMerged, removeWorktree } from '../worktrees';
import { validateDag } from './dag';
import type { SwarmRecorder, SwarmRunResult, SwarmSpec, SwarmTaskResult, WorkerProgress, WorkerState } from './types';

/** A refused swarm spec (a caller's INVALID_PARAMETERS). */
export class SwarmSpecError extends Error {
  override readonly name = 'SwarmSpecError';
  constructor(
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

export interface PreparedSwarm {
  readonly spec: SwarmSpec;
  readonly repo: Repo;
  readonly baseCommit: string;
}

/** Every refusal, before anything is created: SwarmSpecError or RepoError. */
export async function prepareSwarm(spec: SwarmSpec): Promise<PreparedSwarm> {
  const dag = validateDag(spec.tasks);
  if (!dag.ok) throw new SwarmSpecError(dag.message, dag.details);
  if (spec.merge_strategy !== undefined && !spec.merge_target) {
    throw new SwarmSpecError('merge_target is required with merge_strategy', { fields: ['merge_target'] });
  }
  for (const task of spec.tasks) {
    if (task.workdir !== undefined && escapes(task.workdir)) {
      throw new SwarmSpecError(`task "${task.name}": workdir "${task.workdir}" leaves the worktree`, {
        task: task.name,
      });
    }
  }
  const repo = await openRepo(spec.repo_root);
  const baseCommit = await resolveCommit(repo.root, spec.base_ref);
  if (spec.merge_strategy !== undefined && spec.merge_target) await checkMergeTarget(repo, spec.merge_target);
  return { spec, repo, baseCommit };
}

/** Whether a relative workdir leaves the folder it is relative to. */
export function escapes(workdir: string): boolean {
  if (isAbsolute(workdir)) return true;
  const rel = relative('/x', resolve('/x', workdir));
  return rel.startsWith('..') || isAbsolute(rel);
}

interface TaskState {
  state: WorkerState;
  result: SwarmTaskResult;
  start: string | null;
  /** The running command's process group and its leader's start time. */
  group: { pgid: number; started: number | null } | null;
}

export async function runPrepared(
  prepared: PreparedSwarm,
  swarmId: string,
  recorder?: SwarmRecorder,
): Promise<SwarmRunResult> {
  const { spec, repo, baseCommit } = prepared;
  const started = performance.now();
  const secrets = [...Object.values(spec.env_vars ?? {}), ...spec.tasks.flatMap((t) => Object.values(t.env ?? {}))];
  const redact = secretRedactor(secrets);
  const states = new Map<string, TaskState>();
  for (const task of spec.tasks) {
    const { branch } = swarmTaskLayout(repo, swarmId, task.name);
    states.set(task.name, {
      state: 'pending',
      start: null,
      group: null,
      result: {
        name: task.name,
        workspace_id: null,
        success: false,
        exit_code: null,
        stdout: '',
        stderr: '',
        elapsed_ms: 0,
        branch,
        timed_out: false,
        skipped: false,
        commits: 0,
      },
    });
  }
  /** Reports made where nothing can await them (a spawn callback); settled before `finished`. */
  const pending: Promise<void>[] = [];
  const report = async (name: string) => {
    const s = states.get(name) as TaskState;
    const progress: WorkerProgress = {
      name,
      state: s.state,
      workspace_id: s.result.workspace_id,
      branch: s.result.branch,
      exit_code: s.result.exit_code,
      elapsed_ms: s.result.elapsed_ms,
      start_commit: s.start,
      pgid: s.group?.pgid ?? null,
      pgid_started: s.group?.started ?? null,
    };
    await recorder?.worker(progress);
  };
  for (const task of spec.tasks) await report(task.name);

  const runTask = async (name: string): Promise<void> => {
    const task = spec.tasks.find((t) => t.name === name) as SwarmSpec['tasks'][number];
    const s = states.get(name) as TaskState;
    const t0 = performance.now();
    const layout = swarmTaskLayout(repo, swarmId, name);
    try {
      s.state = 'waiting';
      await createWorktree(repo, { ...layout, base: baseCommit, lockReason: `colony swarm ${swarmId}` });
      s.result.workspace_id = layout.path;
      await report(name);
      const deps = (task.depends_on ?? []).map((d) => ({
        name: d,
        branch: (states.get(d) as TaskState).result.branch,
      }));
      const merged = await mergeIntoWorktree(layout.path, deps);
      if (!merged.ok) {
        s.state = 'failed';
        s.result.stderr =
          merged.reason === 'conflict'
            ? `merging dependencies conflicts on: ${merged.files.join(', ')}`
            : `merging dependencies failed`;
        return;
      }
      s.start = (await git(['rev-parse', 'HEAD'], { cwd: layout.path })).trim();
      s.state = 'executing';
      await report(name);
      const run = await runCommand(resolve(layout.path, task.workdir ?? '.'), task.command, {
        timeoutMs: spec.timeout_secs * 1000,
        env: { ...spec.env_vars, ...task.env, COLONY_SWARM_ID: swarmId, COLONY_TASK: name },
        logFile: swarmLogFile(repo, swarmId, name),
        secrets,
        ...(spec.sandbox ? { sandbox: { policy: spec.sandbox, root: layout.path } } : {}),
        // The command starts once its group is recorded, so a recovery after our death can
        // always kill it; if we die first, it never starts (an asynchronous store, PostgreSQL,
        // commits a round trip after the spawn).
        holdUntilSpawnRecorded: true,
        onSpawn: (pgid) => {
          s.group = { pgid, started: processStartTime(pgid) };
          const recorded = report(name);
          pending.push(recorded);
          return recorded;
        },
      });
      s.group = null;
      Object.assign(s.result, {
        exit_code: run.exit_code,
        stdout: run.stdout,
        stderr: run.stderr,
        timed_out: run.timed_out,
      });
      try {
        await autoCommit(layout.path, `swarm: auto-commit ${name}`);
      } catch (error) {
        s.result.stderr += `\ncolony: auto-commit failed: ${redact(error instanceof Error ? error.message : String(error))}`;
      }
      s.result.commits = Number((await git(['rev-list', '--count', `${s.start}..HEAD`], { cwd: layout.path })).trim());
      s.result.success = run.exit_code === 0 && !run.timed_out;
      s.state = s.result.success ? 'completed' : run.timed_out ? 'timed_out' : 'failed';
    } catch (error) {
      s.state = 'failed';
      const message = redact(error instanceof Error ? error.message : String(error));
      s.result.stderr += `${s.result.stderr ? '\n' : ''}colony: ${message}`;
    } finally {
      s.group = null;
      s.result.elapsed_ms = Math.round(performance.now() - t0);
      await report(name);
    }
  };

  await schedule(spec, states, runTask, report);

  const tasks = spec.tasks.map((t) => (states.get(t.name) as TaskState).result);
  const result: SwarmRunResult = {
    swarm_id: swarmId,
    tasks,
    summary: {
      total_tasks: tasks.length,
      succeeded: tasks.filter((t) => t.success).length,
      failed: tasks.filter((t) => !t.success).length,
      total_elapsed_ms: 0,
      workers_destroyed: 0,
    },
  };
  if (spec.merge_strategy !== undefined && spec.merge_target) {
    const sources = spec.tasks
      .map((t) => states.get(t.name) as TaskState)
      .filter((s) => s.result.success)
      .map((s) => ({ name: s.result.name, branch: s.result.branch, ...(s.start ? { start: s.start } : {}) }));
    const merged = await mergeBranches(repo, {
      target: spec.merge_target,
      strategy: spec.merge_strategy,
      sources,
      ...(spec.verify !== undefined ? { verify: spec.verify } : {}),
    });
    result.merge = {
      strategy: spec.merge_strategy,
      target_workspace: spec.merge_target,
      results: merged.results.map(({ source, outcome }) => ({
        source,
        success: outcome.ok,
        commits_applied: outcome.ok ? outcome.commitsApplied : 0,
        conflicts: !outcome.ok && outcome.reason === 'conflict' ? outcome.files : [],
        ...(!outcome.ok && outcome.reason === 'error' ? { error: outcome.message } : {}),
        ...(!outcome.ok && outcome.reason === 'verify_failed'
          ? { error: 'verify failed', log_tail: redact(outcome.logTail) }
          : {}),
      })),
    };
  }
  const landed = new Set(result.merge?.results.filter((r) => r.success).map((r) => r.source) ?? []);
  if (spec.cleanup) result.summary.workers_destroyed = await cleanup(repo, spec, states, landed);
  result.summary.total_elapsed_ms = Math.round(performance.now() - started);
  const failed = result.summary.failed > 0 || (result.merge?.results.some((r) => !r.success) ?? false);
  await Promise.all(pending);
  await recorder?.finished(result, failed ? 'failed' : 'completed');
  return result;
}

/** Starts each task once all its dependencies succeeded; skips those whose dependency did not. */
async function schedule(
  spec: SwarmSpec,
  states: Map<string, TaskState>,
  runTask: (name: string) => Promise<void>,
  report: (name: string) => void,
): Promise<void> {
  const running = new Map<string, Promise<string>>();
  const done = (name: string) => {
    const st = states.get(name)?.state;
    return st === 'completed' || st === 'failed' || st === 'timed_out' || st === 'skipped';
  };
  for (;;) {
    let changed = true;
    while (changed) {
      changed = false;
      for (const task of spec.tasks) {
        const s = states.get(task.name) as TaskState;
        if (s.state !== 'pending') continue;
        const deps = (task.depends_on ?? []).map((d) => states.get(d) as TaskState);
        if (deps.some((d) => d.state === 'failed' || d.state === 'timed_out' || d.state === 'skipped')) {
          s.state = 'skipped';
          s.result.skipped = true;
          s.result.stderr = `skipped: a dependency did not succeed (${(task.depends_on ?? []).filter((d) => !states.get(d)?.result.success).join(', ')})`;
          report(task.name);
          changed = true;
        } else if (deps.every((d) => d.state === 'completed') && running.size < spec.max_parallel) {
          s.state = 'waiting';
          running.set(
            task.name,
            runTask(task.name).then(() => task.name),
          );
          changed = true;
        }
      }
    }
    if (running.size === 0) break;
    const finished = await Promise.race(running.values());
    running.delete(finished);
    if (spec.tasks.every((t) => done(t.name)) && running.size === 0) break;
  }
}

async function cleanup(
  repo: Repo,
  spec: SwarmSpec,
  states: Map<string, TaskState>,
  landed: ReadonlySet<string>,
): Promise<number> {
  let destroyed = 0;
  for (const task of spec.tasks) {
    const s = states.get(task.name) as TaskState;
    if (s.result.workspace_id === null) continue;
    try {
      const removed = await removeWorktree(repo, s.result.workspace_id, { force: true });
      if (removed.removed) destroyed++;
      // Delete the branch only when nothing of it would be lost: no own commits, or its work landed.
      const empty = s.result.commits === 0 && (task.depends_on ?? []).length === 0;
      const merged =
        landed.has(task.name) ||
        (spec.merge_target !== undefined && (await isMerged(repo.root, s.result.branch, spec.merge_target)));
      if (empty || merged) await deleteBranch(repo, s.result.branch);
    } catch {
      // Left for `colony workspace clean`: never fail a finished run over clean-up.
    }
  }
  return destroyed;
}

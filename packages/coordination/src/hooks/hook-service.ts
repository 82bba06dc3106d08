/**
 * @module hooks/hook-service
 * What colony does when an IDE fires a hook. One method per event, each taking the
 * validated payload:
 * - session-start registers the session, joins the task of the cwd's repository and
 *   branch, heartbeats, and returns the preface;
 * - user-prompt-submit heartbeats and returns a one-line reminder only when something
 *   new needs the agent since it last looked;
 * - pre-tool-use claims each file an edit tool is about to change and returns an
 *   overlap warning when others hold it (claims are warnings: never a refusal);
 * - post-tool-use records each edited file as an `edit` observation;
 * - stop heartbeats (it fires at the end of every turn, not when the session ends).
 * With a forage port (settings.foraging.scanOnSessionStart), session-start also
 * indexes the repository's examples/ folders after its own write; a failed scan is a
 * notice, never a failed hook.
 * A file outside any git repository, or in one on a detached HEAD, has no task
 * thread: it is skipped, never an error. Time comes from the injected clock; the
 * repository lookup is injected too.
 */
import { dirname } from 'node:path';
import { activeTasksOfSession, getSession, type Task, upsertSession } from '@swarm/storage';
import { isColonyError, type TaskThreadResult } from '@swarm/tools';
import { type DomainContext, requireTask } from '../context';
import { recordEdit } from '../edits';
import { normalizeRepoPath } from '../repo-paths';
import type { TaskService } from '../tasks/task-service';
import { type AttentionPort, type ClaimPort, NO_ATTENTION, type OthersClaim } from './attention';
import { editTargets } from './edit-targets';
import type { HookEvent, HookIde, HookPayload, HookToolPayload } from './hook-input';
import { renderOverlap, renderPreface, renderReminder } from './preface';

/** The repository a path lives in: its root and checked-out branch (null on a detached HEAD). */
export interface RepoLocation {
  readonly root: string;
  readonly branch: string | null;
}

/** Finds the repository containing a path; null when there is none. */
export type RepoLocator = (path: string) => Promise<RepoLocation | null>;

export interface HookServiceOptions {
  readonly tasks: TaskService;
  readonly locateRepo: RepoLocator;
  /** What the preface and reminders list; default: nothing. */
  readonly attention?: AttentionPort;
  /** How pre-tool-use claims a file; default: edits are not claimed. */
  readonly claims?: ClaimPort;
  /** Indexes a repository's examples at session start; default: none. Returns patterns written. */
  readonly forage?: ForagePort;
}

/** Scans `<repoRoot>/examples/` for the session; returns how many patterns it wrote. */
export type ForagePort = (repoRoot: string, sessionId: string) => number | Promise<number>;

export interface HookResult {
  /** colony's id for the IDE session. */
  readonly sessionId: string;
  /** Text for the model: the preface, a reminder, an overlap warning. */
  readonly context?: string;
  /** A short line for the person at the IDE. */
  readonly notice?: string;
}

/** The agent name of each IDE, as the contract spells agents. */
const AGENT_OF: Readonly<Record<HookIde, string>> = { 'claude-code': 'claude', codex: 'codex' };
const CHECKED_KEY = 'attention_checked_at';

/** colony's session id for an IDE session: the IDE's id, prefixed with the agent. */
export function hookSessionId(ide: HookIde, ideSessionId: string): string {
  const prefix = `${AGENT_OF[ide]}-`;
  return ideSessionId.startsWith(prefix) ? ideSessionId : `${prefix}${ideSessionId}`;
}

interface Caller {
  readonly ide: HookIde;
  readonly agent: string;
  readonly sessionId: string;
  readonly ideSessionId: string;
  readonly cwd: string;
}

interface TargetFile {
  readonly task: Task;
  readonly filePath: string;
}

export class HookService {
  readonly #ctx: DomainContext;
  readonly #tasks: TaskService;
  readonly #locate: RepoLocator;
  readonly #attention: AttentionPort;
  readonly #claims: ClaimPort | undefined;
  readonly #forage: ForagePort | undefined;

  constructor(ctx: DomainContext, options: HookServiceOptions) {
    this.#ctx = ctx;
    this.#tasks = options.tasks;
    this.#locate = options.locateRepo;
    this.#attention = options.attention ?? { read: async () => NO_ATTENTION };
    this.#claims = options.claims;
    this.#forage = options.forage;
  }

  /** Runs the handler of `event`. */
  run<E extends HookEvent>(event: E, ide: HookIde, payload: HookPayload<E>): Promise<HookResult> {
    switch (event) {
      case 'session-start':
        return this.sessionStart(ide, payload);
      case 'user-prompt-submit':
        return this.userPromptSubmit(ide, payload);
      case 'pre-tool-use':
        return this.preToolUse(ide, payload as HookToolPayload);
      case 'post-tool-use':
        return this.postToolUse(ide, payload as HookToolPayload);
      default:
        return this.stop(ide, payload);
    }
  }

  async sessionStart(ide: HookIde, payload: HookPayload<'session-start'>): Promise<HookResult> {
    const caller = callerOf(ide, payload);
    const repo = await this.#locate(caller.cwd);
    const ctx = this.#ctx;
    const result = await ctx.store.write(async (): Promise<HookResult> => {
      const now = ctx.clock.now();
      await this.#register(caller, now);
      let note: string | undefined;
      let task = null;
      if (!repo) note = `No task joined: ${caller.cwd} is not in a git repository. Join one with task_thread.`;
      else if (!repo.branch) note = `No task joined: ${repo.root} is on a detached HEAD. Join one with task_thread.`;
      else {
        const joined = await this.#join(caller, repo.root, repo.branch);
        task = {
          id: joined.task_id,
          repoRoot: joined.repo_root,
          branch: joined.branch,
          others: joined.participants
            .filter((p) => p.session_id !== caller.sessionId)
            .map((p) => ({ sessionId: p.session_id, agent: p.agent })),
        };
      }
      const attention = await this.#attention.read({
        sessionId: caller.sessionId,
        agent: caller.agent,
        taskIds: await this.#taskIdsOf(caller.sessionId),
      });
      await this.#markChecked(caller, now);
      const context = renderPreface({
        sessionId: caller.sessionId,
        agent: caller.agent,
        task,
        ...(note ? { note } : {}),
        attention,
        now,
      });
      return { sessionId: caller.sessionId, context };
    });
    return repo && this.#forage ? { ...result, ...(await this.#foraged(repo.root, caller.sessionId)) } : result;
  }

  /** The forage port's scan, reported as a notice; its failure never fails the hook. */
  async #foraged(root: string, sessionId: string): Promise<{ notice?: string }> {
    try {
      const written = (await this.#forage?.(root, sessionId)) ?? 0;
      return written > 0 ? { notice: `colony: indexed examples of ${root} (${written} pattern(s))` } : {};
    } catch (error) {
      return { notice: `colony: examples scan failed: ${(error as Error).message}` };
    }
  }

  async userPromptSubmit(ide: HookIde, payload: HookPayload<'user-prompt-submit'>): Promise<HookResult> {
    const caller = callerOf(ide, payload);
    const ctx = this.#ctx;
    return ctx.store.write(async () => {
      const now = ctx.clock.now();
      const since = await this.#lastChecked(caller.sessionId);
      await this.#register(caller, now);
      const attention = await this.#attention.read({
        sessionId: caller.sessionId,
        agent: caller.agent,
        taskIds: await this.#taskIdsOf(caller.sessionId),
        ...(since === undefined ? {} : { since }),
      });
      await this.#markChecked(caller, now);
      const reminder = renderReminder(attention);
      return { sessionId: caller.sessionId, ...(reminder ? { context: reminder } : {}) };
    });
  }

  async preToolUse(ide: HookIde, payload: HookToolPayload): Promise<HookResult> {
    const caller = callerOf(ide, payload);
    const located = await this.#locateAll(editTargets(payload.tool_name, payload.tool_input, caller.cwd));
    const ctx = this.#ctx;
    return ctx.store.write(async () => {
      const now = ctx.clock.now();
      await this.#register(caller, now);
      const conflicts: OthersClaim[] = [];
      for (const target of await this.#targets(caller, located)) {
        const claimed = await this.#claims?.claim({
          taskId: target.task.id,
          sessionId: caller.sessionId,
          agent: caller.agent,
          filePath: target.filePath,
        });
        conflicts.push(...(claimed?.conflicts ?? []));
      }
      const warning = renderOverlap(conflicts, now);
      if (!warning) return { sessionId: caller.sessionId };
      const files = [...new Set(conflicts.map((c) => c.filePath))];
      return {
        sessionId: caller.sessionId,
        context: warning,
        notice: `colony: ${files.join(', ')} also claimed by another session (warning only)`,
      };
    });
  }

  async postToolUse(ide: HookIde, payload: HookToolPayload): Promise<HookResult> {
    const caller = callerOf(ide, payload);
    const located = await this.#locateAll(editTargets(payload.tool_name, payload.tool_input, caller.cwd));
    const ctx = this.#ctx;
    return ctx.store.write(async () => {
      await this.#register(caller, ctx.clock.now());
      for (const target of await this.#targets(caller, located)) {
        await recordEdit(ctx, {
          sessionId: caller.sessionId,
          task: target.task,
          tool: payload.tool_name,
          filePath: target.filePath,
        });
      }
      return { sessionId: caller.sessionId };
    });
  }

  async stop(ide: HookIde, payload: HookPayload<'stop'>): Promise<HookResult> {
    const caller = callerOf(ide, payload);
    const ctx = this.#ctx;
    return ctx.store.write(async () => {
      await this.#register(caller, ctx.clock.now());
      return { sessionId: caller.sessionId };
    });
  }

  /** Joins the session to the thread of (root, branch), as task_thread does. */
  #join(caller: Caller, root: string, branch: string): Promise<TaskThreadResult> {
    return this.#tasks.thread({
      repo_root: root,
      branch,
      session_id: caller.sessionId,
      agent: caller.agent,
      ide: caller.ide,
    });
  }

  /** Registers the session or refreshes its heartbeat (and cwd). */
  async #register(caller: Caller, now: number): Promise<void> {
    await upsertSession(
      this.#ctx.store,
      {
        id: caller.sessionId,
        ide: caller.ide,
        agent: caller.agent,
        cwd: caller.cwd,
        metadata: { ide_session_id: caller.ideSessionId },
      },
      now,
    );
  }

  async #taskIdsOf(sessionId: string): Promise<number[]> {
    return (await activeTasksOfSession(this.#ctx.store, sessionId)).map(({ task }) => task.id);
  }

  async #lastChecked(sessionId: string): Promise<number | undefined> {
    const value = (await getSession(this.#ctx.store, sessionId))?.metadata?.[CHECKED_KEY];
    return typeof value === 'number' ? value : undefined;
  }

  async #markChecked(caller: Caller, now: number): Promise<void> {
    await upsertSession(this.#ctx.store, { id: caller.sessionId, metadata: { [CHECKED_KEY]: now } }, now);
  }

  /** The repository of each file (looked up from the file's folder: it may not exist yet). */
  async #locateAll(files: readonly string[]): Promise<Array<{ file: string; repo: RepoLocation | null }>> {
    const byFolder = new Map<string, Promise<RepoLocation | null>>();
    return Promise.all(
      files.map(async (file) => {
        const folder = dirname(file);
        let lookup = byFolder.get(folder);
        if (!lookup) {
          lookup = this.#locate(folder);
          byFolder.set(folder, lookup);
        }
        return { file, repo: await lookup };
      }),
    );
  }

  /**
   * The task thread and repo-relative path of each file on a branch, joining the
   * thread when the session is not in it yet (a branch switched mid-session, or hooks
   * installed after the session started). Call inside `store.write`.
   */
  async #targets(
    caller: Caller,
    located: ReadonlyArray<{ file: string; repo: RepoLocation | null }>,
  ): Promise<TargetFile[]> {
    const targets: TargetFile[] = [];
    const tasks = new Map<string, Task>();
    for (const { file, repo } of located) {
      if (!repo?.branch) continue;
      const key = `${repo.root}\u0000${repo.branch}`;
      let task = tasks.get(key);
      if (!task) {
        const joined = await this.#join(caller, repo.root, repo.branch);
        task = await requireTask(this.#ctx, joined.task_id);
        tasks.set(key, task);
      }
      try {
        targets.push({ task, filePath: normalizeRepoPath(task.repoRoot, file) });
      } catch (error) {
        if (!isColonyError(error)) throw error;
      }
    }
    return targets;
  }
}

function callerOf(ide: HookIde, payload: { session_id: string; cwd: string }): Caller {
  return {
    ide,
    agent: AGENT_OF[ide],
    sessionId: hookSessionId(ide, payload.session_id),
    ideSessionId: payload.session_id,
    cwd: payload.cwd,
  };
}

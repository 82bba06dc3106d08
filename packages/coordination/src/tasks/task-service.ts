/**
 * @module tasks/task-service
 * Task threads: one per (repo_root, branch), joined by sessions as agents, carrying
 * shared posts. Every state change appends its observation in the same transaction.
 */
import { resolve } from 'node:path';
import {
  activeTasksOfSession,
  countCalls,
  countTasksMatching,
  ensureTask,
  getObservation,
  getParticipant,
  joinTask,
  listParticipants,
  listTasks,
  type Task,
  taskTimeline,
  taskUpdatesSince,
  upsertSession,
} from '@swarm/storage';
import {
  ColonyError,
  type NoteWorkingResult,
  type ParticipantRef,
  type TaskBackend,
  type TaskListInput,
  type TaskListResult,
  type TaskNoteWorkingInput,
  type TaskPostInput,
  type TaskPostResult,
  type TaskThreadInput,
  type TaskThreadResult,
  type TaskTimelineEntry,
  type TaskTimelineInput,
  type TaskUpdate,
  type TaskUpdatesSinceInput,
} from '@swarm/tools';
import { withBudget } from '../budget';
import { appendObservation, type DomainContext, ensureSession, requireParticipant, requireTask } from '../context';
import { inferIdeFromSessionId } from '../ide';
import { writeNotepadPointer } from './omx-notepad';
import { pointerFor } from './pointer-fields';
import { compactLine, directedAgent, looksLikeFutureWork } from './post-routing';

export const TASK_LIST_HINT = 'Inventory for browsing/debugging. Use task_ready_for_agent to choose work.';
export const TASK_LIST_WARNING = 'task_list is inventory; use task_ready_for_agent to choose work.';
export const TASK_LIST_STRONG_WARNING = 'Stop browsing. Call task_ready_for_agent before selecting work.';
// Short: every post pays for it (issue 17's token goal).
const POST_HINT = 'Working state without task_id: task_note_working.';
const DIRECTED_HINT = 'For directed agent coordination, use task_message.';

/** One canonical spelling of a repository root: absolute, no trailing separator. */
export function normalizeRepoRoot(repoRoot: string): string {
  return resolve(repoRoot);
}

export class TaskService implements TaskBackend {
  readonly #ctx: DomainContext;

  constructor(ctx: DomainContext) {
    this.#ctx = ctx;
  }

  thread(args: TaskThreadInput): Promise<TaskThreadResult> {
    const ctx = this.#ctx;
    const repoRoot = normalizeRepoRoot(args.repo_root);
    return ctx.store.write(async () => {
      const now = ctx.clock.now();
      await upsertSession(
        ctx.store,
        { id: args.session_id, ide: args.ide ?? inferIdeFromSessionId(args.session_id), agent: args.agent },
        now,
      );
      const { task, created } = await ensureTask(
        ctx.store,
        { repoRoot, branch: args.branch, title: args.title ?? null, createdBySession: args.session_id },
        now,
      );
      const before = await getParticipant(ctx.store, task.id, args.session_id);
      await joinTask(ctx.store, task.id, args.session_id, args.agent, now);
      if (!before || before.leftAt !== null || before.agent !== args.agent) {
        await appendObservation(ctx, {
          sessionId: args.session_id,
          taskId: task.id,
          kind: created ? 'task-open' : 'task-join',
          content: `${args.agent} ${created ? 'opened' : 'joined'} ${args.branch} in ${repoRoot}`,
          metadata: { agent: args.agent, branch: args.branch, repo_root: repoRoot },
        });
      }
      return {
        task_id: task.id,
        repo_root: task.repoRoot,
        branch: task.branch,
        created,
        participants: (await participantsOf(this.#ctx, [task.id])).get(task.id) ?? [],
      };
    });
  }

  async list(args: TaskListInput): Promise<TaskListResult> {
    const ctx = this.#ctx;
    const filter = {
      ...(args.repo_root === undefined ? {} : { repoRoot: normalizeRepoRoot(args.repo_root) }),
      ...(args.branch === undefined ? {} : { branch: args.branch }),
    };
    const tasks = await listTasks(ctx.store, { ...filter, limit: args.limit });
    const participants = await participantsOf(
      ctx,
      tasks.map((t) => t.id),
    );
    const result: Omit<TaskListResult, 'budget'> = {
      tasks: tasks.map((t) => ({
        id: t.id,
        repo_root: t.repoRoot,
        branch: t.branch,
        title: t.title,
        status: t.status,
        updated_at: t.updatedAt,
        participants: participants.get(t.id) ?? [],
      })),
      hint: TASK_LIST_HINT,
    };
    const warning = await this.#browsingWarning(args.session_id);
    if (warning) {
      result.coordination_warning = warning;
      result.next_tool = 'task_ready_for_agent';
    }
    // Counted only when the page is full: a short page is everything there is.
    const available = tasks.length < args.limit ? tasks.length : await countTasksMatching(ctx.store, filter);
    return withBudget(
      result,
      {
        available,
        returned: tasks.length,
        hydrate_with: 'task_timeline',
        why_collapsed: `Most recently updated ${args.limit}: narrow by repo_root or branch, or raise limit.`,
      },
      ctx.tokens,
    );
  }

  /** Warns sessions that browse instead of picking work; silent once they have used the picker. */
  async #browsingWarning(sessionId: string | undefined): Promise<string | undefined> {
    if (sessionId === undefined) return TASK_LIST_WARNING;
    const store = this.#ctx.store;
    if ((await countCalls(store, sessionId, 'task_ready_for_agent')) > 0) return undefined;
    return (await countCalls(store, sessionId, 'task_list')) > 0 ? TASK_LIST_STRONG_WARNING : TASK_LIST_WARNING;
  }

  async timeline(args: TaskTimelineInput): Promise<TaskTimelineEntry[]> {
    await requireTask(this.#ctx, args.task_id);
    return (await taskTimeline(this.#ctx.store, args.task_id, args.limit)).map((r) => ({
      id: r.id,
      kind: r.kind,
      session_id: r.sessionId,
      ts: r.ts,
      reply_to: r.replyTo,
    }));
  }

  async updatesSince(args: TaskUpdatesSinceInput): Promise<TaskUpdate[]> {
    await requireTask(this.#ctx, args.task_id);
    return (await taskUpdatesSince(this.#ctx.store, args.task_id, args.since_ts, args.limit, args.session_id)).map(
      (r) => ({
        id: r.id,
        kind: r.kind,
        session_id: r.sessionId,
        ts: r.ts,
      }),
    );
  }

  post(args: TaskPostInput): Promise<TaskPostResult> {
    const ctx = this.#ctx;
    return ctx.store.write(async () => {
      const task = await requireTask(ctx, args.task_id);
      const participant = await requireParticipant(ctx, task, args.session_id);
      if (args.reply_to !== undefined) await requireObservationOnTask(ctx, args.reply_to, task.id);
      const id = await appendObservation(ctx, {
        sessionId: args.session_id,
        taskId: task.id,
        kind: args.kind,
        content: args.content,
        replyTo: args.reply_to ?? null,
      });
      return routePost(task, participant.agent, args, id);
    });
  }

  async noteWorking(args: TaskNoteWorkingInput): Promise<NoteWorkingResult> {
    const ctx = this.#ctx;
    const repoRoot = args.repo_root === undefined ? undefined : normalizeRepoRoot(args.repo_root);
    const posted = await ctx.store.write(async () => {
      await ensureSession(ctx, args.session_id);
      const matches = (await activeTasksOfSession(ctx.store, args.session_id)).filter(
        ({ task }) =>
          (repoRoot === undefined || task.repoRoot === repoRoot) &&
          (args.branch === undefined || task.branch === args.branch),
      );
      if (matches.length > 1) {
        throw new ColonyError(
          'AMBIGUOUS_ACTIVE_TASK',
          `session "${args.session_id}" has ${matches.length} active tasks: pass repo_root and branch to choose one`,
          {
            details: {
              candidates: matches.slice(0, 10).map(({ task, agent }) => ({
                task_id: task.id,
                repo_root: task.repoRoot,
                branch: task.branch,
                status: task.status,
                updated_at: task.updatedAt,
                agent,
              })),
            },
          },
        );
      }
      const match = matches[0];
      if (!match) return null;
      const id = await appendObservation(ctx, {
        sessionId: args.session_id,
        taskId: match.task.id,
        kind: 'note',
        content: args.content,
        metadata: { working: true, ...(args.pointer ? { pointer: args.pointer } : {}) },
      });
      return { task: match.task, id };
    });

    if (!posted) {
      const details: Record<string, unknown> = { session_id: args.session_id };
      if (args.allow_omx_notepad_fallback && repoRoot !== undefined) {
        const written = writeNotepadPointer(ctx.roots, repoRoot, pointerFor(args, null, null));
        if ('path' in written) details.omx_notepad_path = written.path;
        else details.omx_notepad_warning = `OMX notepad pointer not written: ${written.failure}`;
      }
      throw new ColonyError(
        'ACTIVE_TASK_NOT_FOUND',
        `no active task of session "${args.session_id}" matches${repoRoot ? ` repo_root ${repoRoot}` : ''}${
          args.branch ? ` branch ${args.branch}` : ''
        }: join one with task_thread`,
        { details },
      );
    }

    const result: NoteWorkingResult = { observation_id: posted.id, id: posted.id, task_id: posted.task.id };
    if (ctx.settings.bridge.writeOmxNotepadPointer) {
      // The note is committed: a pointer that cannot be written is a warning, not a failure.
      const written = writeNotepadPointer(ctx.roots, posted.task.repoRoot, pointerFor(args, posted.task, posted.id));
      if ('path' in written) result.omx_notepad_path = written.path;
      else result.warning = `note saved; OMX notepad pointer not written: ${written.failure}`;
    }
    return result;
  }
}

async function participantsOf(ctx: DomainContext, taskIds: readonly number[]): Promise<Map<number, ParticipantRef[]>> {
  const byTask = new Map<number, ParticipantRef[]>();
  for (const p of await listParticipants(ctx.store, taskIds)) {
    const list = byTask.get(p.taskId) ?? [];
    list.push({ session_id: p.sessionId, agent: p.agent });
    byTask.set(p.taskId, list);
  }
  return byTask;
}

async function requireObservationOnTask(ctx: DomainContext, id: number, taskId: number): Promise<void> {
  const target = await getObservation(ctx.store, id);
  if (!target) {
    throw new ColonyError('OBSERVATION_NOT_FOUND', `reply_to observation ${id} not found`, {
      details: { reply_to: id },
    });
  }
  if (target.taskId !== taskId) {
    throw new ColonyError('OBSERVATION_NOT_ON_TASK', `observation ${id} is not on task ${taskId}`, {
      details: { reply_to: id, task_id: taskId, observation_task_id: target.taskId },
    });
  }
}

function routePost(task: Task, agent: string, args: TaskPostInput, id: number): TaskPostResult {
  const result: TaskPostResult = { id, hint: POST_HINT };
  const addressed = directedAgent(args.content);
  if (addressed && addressed !== agent.toLowerCase()) {
    result.hint = `${POST_HINT} ${DIRECTED_HINT}`;
    result.route_to_task_message = true;
    result.misrouted_directed_coordination = true;
    result.replacement_tool = 'task_message';
    result.suggested_args = {
      task_id: task.id,
      session_id: args.session_id,
      agent,
      to_agent: addressed === 'claude' || addressed === 'codex' ? addressed : 'any',
      content: compactLine(args.content),
      urgency: args.content.includes('?') ? 'needs_reply' : 'fyi',
    };
  }
  if (looksLikeFutureWork(args.kind, args.content)) {
    result.recommendation = {
      tool: 'task_propose',
      reason: 'This reads as future work: propose it so other agents can reinforce and promote it.',
      suggested_args: {
        repo_root: task.repoRoot,
        branch: task.branch,
        summary: compactLine(args.content, 120),
        rationale: compactLine(args.content),
        touches_files: [],
        session_id: args.session_id,
      },
    };
  }
  return result;
}

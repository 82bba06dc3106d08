/**
 * @module context
 * What every domain service is built from: the store and the side effects passed in
 * (clock, token counter, settings), plus the guards and the append path they share.
 */
import {
  type ColonyStore,
  getParticipant,
  getSession,
  getTask,
  insertObservationTouching,
  type JsonObject,
  type Participant,
  type Session,
  type Task,
  upsertSession,
} from '@swarm/storage';
import { ColonyError } from '@swarm/tools';
import type { Clock } from './clock';
import { inferIdeFromSessionId } from './ide';
import type { FileRoots } from './roots';
import { estimateTokens, type TokenCounter } from './tokens';

export interface CoordinationSettings {
  readonly bridge: {
    /** Append a one-line pointer to <repo_root>/.omx/notepad.md after each working note. */
    readonly writeOmxNotepadPointer: boolean;
  };
}

export const DEFAULT_COORDINATION_SETTINGS: CoordinationSettings = {
  bridge: { writeOmxNotepadPointer: false },
};

export interface DomainContext {
  readonly store: ColonyStore;
  readonly clock: Clock;
  readonly tokens: TokenCounter;
  readonly settings: CoordinationSettings;
  /**
   * The roots file tools may read and write under (see `roots.ts`). openColony always
   * sets it; a context built without it leaves repo_root unconfined.
   */
  readonly roots?: FileRoots;
  /**
   * Counts an observation's tokens later, off the write path (core: with the call's
   * receipt). Given, appendObservation stores an estimate while the tokenizer is not
   * loaded on this thread, and this refines it after the answer, so a write never
   * holds the store's lock while the tokenizer loads. Absent: counted in place.
   */
  readonly deferTokenCount?: (observationId: number, content: string) => void;
}

export async function requireSession(ctx: DomainContext, id: string, role = 'session'): Promise<Session> {
  const session = await getSession(ctx.store, id);
  if (!session) {
    throw new ColonyError('SESSION_NOT_FOUND', `${role} "${id}" not found: register it with task_thread first`, {
      details: { session_id: id },
    });
  }
  return session;
}

/**
 * The caller's session, registered on its first call when unknown (call inside
 * `store.write`). The contract refuses to materialise a phantom session only in
 * recall_session, and for a named recipient (`requireSession`); an agent that works
 * before joining a thread must be served, and the refusal that fits follows.
 */
export async function ensureSession(ctx: DomainContext, id: string, agent?: string | null): Promise<Session> {
  return (
    (await getSession(ctx.store, id)) ??
    (await upsertSession(ctx.store, { id, ide: inferIdeFromSessionId(id), agent }, ctx.clock.now()))
  );
}

export async function requireTask(ctx: DomainContext, id: number): Promise<Task> {
  const task = await getTask(ctx.store, id);
  if (!task) throw new ColonyError('TASK_NOT_FOUND', `task ${id} not found`, { details: { task_id: id } });
  return task;
}

/** The session must have joined the task (an unknown session has joined nothing). */
export async function requireParticipant(ctx: DomainContext, task: Task, sessionId: string): Promise<Participant> {
  const participant = await getParticipant(ctx.store, task.id, sessionId);
  if (!participant || participant.leftAt !== null) {
    throw new ColonyError(
      'NOT_PARTICIPANT',
      `session "${sessionId}" has not joined task ${task.id} (${task.branch}): call task_thread first`,
      { details: { task_id: task.id, session_id: sessionId } },
    );
  }
  return participant;
}

export interface Append {
  readonly sessionId: string;
  readonly taskId?: number | null;
  readonly kind: string;
  readonly content: string;
  readonly metadata?: JsonObject | null;
  readonly replyTo?: number | null;
  /**
   * Whether the entry is a sign of life of its session (default true). False for what is
   * written on behalf of a session that is gone, such as a rescue relay.
   */
  readonly heartbeat?: boolean;
}

/**
 * Appends an observation, refreshing the session heartbeat and the task's updated_at.
 * Call inside `store.write` so the observation lands with the state change it records.
 */
export async function appendObservation(ctx: DomainContext, entry: Append): Promise<number> {
  const now = ctx.clock.now();
  const defer = ctx.deferTokenCount !== undefined && ctx.tokens.ready?.() === false;
  const row = {
    sessionId: entry.sessionId,
    taskId: entry.taskId ?? null,
    kind: entry.kind,
    content: entry.content,
    metadata: entry.metadata ?? null,
    replyTo: entry.replyTo ?? null,
    ts: now,
    tokenCount: defer ? estimateTokens(entry.content) : ctx.tokens.count(entry.content),
  };
  const touches = { session: entry.heartbeat !== false, task: entry.taskId != null };
  const id = await insertObservationTouching(ctx.store, row, touches);
  if (defer) ctx.deferTokenCount?.(id, entry.content);
  return id;
}

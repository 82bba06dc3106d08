/**
 * Test helpers for the message suites: one thread on `main` with claude-1 (claude),
 * codex-1 and codex-2 (codex), a second thread `other` that only claude-1 and
 * cursor-9 joined, and short ways to send, list and count.
 */
import { countMessages, getMessage, type Message } from '@swarm/storage';
import type { MessageEntry } from '@swarm/tools';
import { createFixture, type Fixture } from './_fixture';

export const REPO = '/abs/msg-repo';

export interface Threads {
  readonly main: number;
  readonly other: number;
}

export async function openThreads(fx: Fixture): Promise<Threads> {
  const join = async (branch: string, session_id: string, agent: string) =>
    (await fx.ok<{ task_id: number }>('task_thread', { repo_root: REPO, branch, session_id, agent })).task_id;
  const main = await join('main', 'claude-1', 'claude');
  await join('main', 'codex-1', 'codex');
  await join('main', 'codex-2', 'codex');
  const other = await join('other', 'claude-1', 'claude');
  await join('other', 'cursor-9', 'cursor');
  return { main, other };
}

/** A fresh fixture with the threads open: for `beforeEach`. */
export async function freshThreads(): Promise<{ fx: Fixture; t: Threads }> {
  const fx = createFixture();
  return { fx, t: await openThreads(fx) };
}

/** A task_post on a thread; returns its id. */
export async function post(fx: Fixture, taskId: number, session_id: string, content: string): Promise<number> {
  return (await fx.ok<{ id: number }>('task_post', { task_id: taskId, session_id, kind: 'note', content })).id;
}

/** Sends a message (claude-1 as claude by default) and returns its id. */
export async function send(fx: Fixture, taskId: number, args: Record<string, unknown> = {}): Promise<number> {
  const sent = await fx.ok<{ message_observation_id: number; status: string }>('task_message', {
    task_id: taskId,
    session_id: 'claude-1',
    agent: 'claude',
    content: 'please re-run the typecheck',
    ...args,
  });
  return sent.message_observation_id;
}

export function inbox(
  fx: Fixture,
  session_id: string,
  agent: string,
  extra: Record<string, unknown> = {},
): Promise<MessageEntry[]> {
  return fx.ok<MessageEntry[]>('task_messages', { session_id, agent, ...extra });
}

export const ids = (entries: readonly MessageEntry[]) => entries.map((e) => e.id);

/** Observation and message row counts: a refusal must leave both unchanged. */
export function written(fx: Fixture): { observations: number; messages: number } {
  return { observations: fx.observations(), messages: countMessages(fx.store) };
}

export function row(fx: Fixture, id: number): Message {
  const message = getMessage(fx.store, id);
  if (!message) throw new Error(`no message row #${id}`);
  return message;
}

/**
 * @module viewer/thread-view
 * One task thread for the page's side view (a click on a lane, claim, message or
 * search hit): the thread's title, branch and participants from `task_list`, its
 * newest posts from `task_timeline` hydrated with `get_observations`, each cut to a
 * short body. Read-only tool calls, like every panel.
 */
import type { ObservationBody, TaskListResult, TaskTimelineEntry } from '@swarm/tools';
import { PanelError, type ReadTool } from './_reader';

/** Posts shown, newest first, and how much of each body. */
export const THREAD_POST_LIMIT = 30;
export const POST_CHARS = 600;
/** `task_list`'s page cap: the thread is looked up among the newest threads. */
const TASK_SCAN_LIMIT = 200;

export interface ThreadPost {
  readonly id: number;
  readonly kind: string;
  readonly session_id: string;
  readonly ts: number;
  readonly reply_to: number | null;
  readonly body: string;
  readonly truncated: boolean;
}

type TaskSummary = TaskListResult['tasks'][number];

export interface ThreadView {
  readonly task: Pick<TaskSummary, 'id' | 'repo_root' | 'branch' | 'title' | 'status' | 'participants'> | null;
  readonly posts: readonly ThreadPost[];
}

/** Parses the `task_id` query value: a positive integer, else a BAD_REQUEST. */
export function parseTaskId(raw: string | null): number {
  const id = raw !== null && /^[1-9][0-9]{0,15}$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isSafeInteger(id)) throw new PanelError('BAD_REQUEST', 'task_id must be a positive integer');
  return id;
}

export async function threadView(read: ReadTool, taskId: number): Promise<ThreadView> {
  const [timeline, list] = await Promise.all([
    read<TaskTimelineEntry[]>('task_timeline', { task_id: taskId, limit: THREAD_POST_LIMIT }),
    read<TaskListResult>('task_list', { limit: TASK_SCAN_LIMIT }),
  ]);
  const found = list.tasks.find((t) => t.id === taskId);
  const task = found
    ? {
        id: found.id,
        repo_root: found.repo_root,
        branch: found.branch,
        title: found.title,
        status: found.status,
        participants: found.participants,
      }
    : null;
  if (timeline.length === 0) return { task, posts: [] };
  const bodies = await read<ObservationBody[]>('get_observations', { ids: timeline.map((t) => t.id) });
  const byId = new Map(bodies.map((b) => [b.id, b]));
  const posts = timeline.map((entry) => {
    const content = byId.get(entry.id)?.content ?? '';
    return {
      ...entry,
      body: content.length > POST_CHARS ? `${content.slice(0, POST_CHARS - 1)}…` : content,
      truncated: content.length > POST_CHARS,
    };
  });
  return { task, posts };
}

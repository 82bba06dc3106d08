/**
 * @module tools/links
 * Links between related task threads: bidirectional and idempotent, so either side
 * finds the other without decisions being copied between threads.
 */
import { z } from 'zod';
import { defineTool } from '../define-tool';
import { sessionId, taskId } from '../schemas';

const pair = { task_id: taskId, other_task_id: taskId };

export const TaskLinkInput = z.strictObject({
  ...pair,
  session_id: sessionId,
  note: z.string().min(1).max(500).optional(),
});
export type TaskLinkInput = z.output<typeof TaskLinkInput>;

export interface TaskLinkResult {
  low_id: number;
  high_id: number;
  created_at: number;
  created_by: string;
  note: string | null;
}

export interface LinkedTaskEntry extends TaskLinkResult {
  other_task: { id: number; repo_root: string; branch: string; title: string | null; status: string };
}

export interface LinkBackend {
  link(args: TaskLinkInput): Promise<TaskLinkResult>;
  links(args: TaskLinksInput): Promise<LinkedTaskEntry[]>;
  unlink(args: TaskUnlinkInput): Promise<{ removed: boolean }>;
}

/** The part of ColonyBackend these tools call (backend.ts composes the whole). */
type Host = { readonly links: LinkBackend };

export const taskLink = defineTool({
  name: 'task_link',
  title: 'Link tasks',
  description: 'Link two related task threads.',
  input: TaskLinkInput,
  mutates: true,
  hints: { destructive: false, idempotent: true },
  docs: {
    returns: '{ low_id, high_id, created_at, created_by, note }',
    errors: ['TASK_LINK_SELF', 'TASK_NOT_FOUND', 'SESSION_NOT_FOUND'],
    notes:
      'A link is stored once as (low_id, high_id), whichever side names it. Linking a linked pair ' +
      'again returns the existing link unchanged (its first note and creator) and writes nothing. A ' +
      'new link appends a `task_link` observation on task_id.',
    example: { task_id: 17, other_task_id: 42, session_id: 'sess_abc', note: 'frontend task depends on API contract' },
  },
  handler: (args, b: Host) => b.links.link(args),
});

export const TaskLinksInput = z.strictObject({ task_id: taskId });
export type TaskLinksInput = z.output<typeof TaskLinksInput>;

export const taskLinks = defineTool({
  name: 'task_links',
  title: 'Task links',
  description: "A task thread's linked tasks.",
  input: TaskLinksInput,
  mutates: false,
  docs: {
    returns:
      '[ { other_task: { id, repo_root, branch, title, status }, note, low_id, high_id, created_at, ' +
      'created_by } ] newest first.',
    errors: ['TASK_NOT_FOUND'],
    example: { task_id: 17 },
  },
  handler: (args, b: Host) => b.links.links(args),
});

export const TaskUnlinkInput = z.strictObject({ ...pair, session_id: sessionId.optional() });
export type TaskUnlinkInput = z.output<typeof TaskUnlinkInput>;

export const taskUnlink = defineTool({
  name: 'task_unlink',
  title: 'Unlink tasks',
  description: 'Remove the link between two task threads.',
  input: TaskUnlinkInput,
  mutates: true,
  hints: { destructive: true, idempotent: true },
  docs: {
    returns: '{ removed: true } when a link was deleted, { removed: false } when there was none.',
    errors: ['TASK_NOT_FOUND', 'SESSION_NOT_FOUND'],
    notes:
      'Either order of the pair removes the link. With session_id, a removal appends a `task_unlink` ' +
      'observation on task_id for the audit trail.',
    example: { task_id: 17, other_task_id: 42 },
  },
  handler: (args, b: Host) => b.links.unlink(args),
});

export const linkTools = [taskLink, taskLinks, taskUnlink];

/**
 * @module tools/tasks
 * Task-thread tools: open or join the thread for (repo_root, branch), post shared
 * state to it, and read what changed.
 */
import { z } from 'zod';
import { defineTool } from '../define-tool';
import type { BudgetInfo } from '../schemas';
import {
  agentName,
  branchName,
  content,
  limit,
  observationId,
  repoRoot,
  sessionId,
  taskId,
  timestampMs,
} from '../schemas';

export const TASK_POST_KINDS = [
  'question',
  'answer',
  'decision',
  'blocker',
  'note',
  'failed_approach',
  'blocked_path',
  'conflict_warning',
  'reverted_solution',
] as const;
export type TaskPostKind = (typeof TASK_POST_KINDS)[number];

/** Post kinds that warn other agents off a path; search and context tools surface them. */
export const NEGATIVE_WARNING_KINDS: readonly TaskPostKind[] = [
  'failed_approach',
  'blocked_path',
  'conflict_warning',
  'reverted_solution',
];

export const TaskThreadInput = z.strictObject({
  repo_root: repoRoot,
  branch: branchName,
  session_id: sessionId,
  agent: agentName,
  ide: agentName.optional(),
  title: z.string().min(1).max(200).optional(),
});
export type TaskThreadInput = z.output<typeof TaskThreadInput>;

export interface ParticipantRef {
  session_id: string;
  agent: string;
}

export interface TaskThreadResult {
  task_id: number;
  repo_root: string;
  branch: string;
  created: boolean;
  participants: ParticipantRef[];
}

export interface TaskSummary {
  id: number;
  repo_root: string;
  branch: string;
  title: string | null;
  status: string;
  updated_at: number;
  participants: ParticipantRef[];
}

export interface TaskListResult {
  tasks: TaskSummary[];
  hint: string;
  coordination_warning?: string;
  next_tool?: string;
  budget: BudgetInfo;
}

export interface TaskTimelineEntry {
  id: number;
  kind: string;
  session_id: string;
  ts: number;
  reply_to: number | null;
}

export interface TaskUpdate {
  id: number;
  kind: string;
  session_id: string;
  ts: number;
}

export interface TaskPostResult {
  id: number;
  hint: string;
  recommendation?: {
    tool: 'task_propose';
    reason: string;
    suggested_args: Record<string, unknown>;
  };
  route_to_task_message?: true;
  misrouted_directed_coordination?: true;
  replacement_tool?: 'task_message';
  suggested_args?: Record<string, unknown>;
}

export interface NoteWorkingResult {
  observation_id: number;
  id: number;
  task_id: number;
  omx_notepad_path?: string;
  /** Set when the note was saved but the OMX pointer could not be written. */
  warning?: string;
}

export interface TaskBackend {
  thread(args: TaskThreadInput): Promise<TaskThreadResult>;
  list(args: TaskListInput): Promise<TaskListResult>;
  timeline(args: TaskTimelineInput): Promise<TaskTimelineEntry[]>;
  updatesSince(args: TaskUpdatesSinceInput): Promise<TaskUpdate[]>;
  post(args: TaskPostInput): Promise<TaskPostResult>;
  noteWorking(args: TaskNoteWorkingInput): Promise<NoteWorkingResult>;
}

/** The part of ColonyBackend these tools call (backend.ts composes the whole). */
type Host = { readonly tasks: TaskBackend };

export const taskThread = defineTool({
  name: 'task_thread',
  title: 'Open task thread',
  description: 'Open or join the task thread for repo_root+branch.',
  input: TaskThreadInput,
  core: true,
  mutates: true,
  hints: { destructive: false, idempotent: true },
  docs: {
    returns: '{ task_id, repo_root, branch, created, participants: [ { session_id, agent } ] }',
    notes:
      'The thread is unique per (repo_root, branch): concurrent opens from many processes land in one ' +
      'thread. Joining again is harmless and refreshes your agent name and heartbeat. `ide` defaults ' +
      'to the IDE inferred from the session id.',
    example: { repo_root: '/abs/repo', branch: 'agent/codex/live-task', session_id: 'sess_abc', agent: 'codex' },
  },
  handler: (args, b: Host) => b.tasks.thread(args),
});

export const TaskListInput = z.strictObject({
  limit: limit(50, 200),
  session_id: sessionId.optional(),
  repo_root: repoRoot.optional(),
  branch: branchName.optional(),
});
export type TaskListInput = z.output<typeof TaskListInput>;

export const taskList = defineTool({
  name: 'task_list',
  title: 'List tasks',
  description: 'Browse task threads.',
  input: TaskListInput,
  mutates: false,
  docs: {
    returns:
      '{ tasks: [ { id, repo_root, branch, title, status, updated_at, participants: [ { session_id, ' +
      'agent } ] } ], hint, coordination_warning?, next_tool?, budget }',
    notes:
      'Before a session has called task_ready_for_agent, coordination_warning is "task_list is ' +
      'inventory; use task_ready_for_agent to choose work." and next_tool is task_ready_for_agent. A ' +
      'repeated task_list without task_ready_for_agent gets the stronger "Stop browsing. Call ' +
      'task_ready_for_agent before selecting work.". After task_ready_for_agent, both are omitted. ' +
      '`hint` is kept for backward compatibility. budget counts the threads matching repo_root/branch ' +
      '(counted only when the page is full) against those listed.',
    example: { limit: 50, session_id: 'sess_abc' },
  },
  handler: (args, b: Host) => b.tasks.list(args),
});

export const TaskTimelineInput = z.strictObject({ task_id: taskId, limit: limit(50, 200) });
export type TaskTimelineInput = z.output<typeof TaskTimelineInput>;

export const taskTimeline = defineTool({
  name: 'task_timeline',
  title: 'Task timeline',
  description: "A task thread's observation ids, newest first.",
  input: TaskTimelineInput,
  mutates: false,
  docs: {
    returns: '[ { id, kind, session_id, ts, reply_to } ] newest first. Hydrate with get_observations.',
    errors: ['TASK_NOT_FOUND'],
    example: { task_id: 17, limit: 50 },
  },
  handler: (args, b: Host) => b.tasks.timeline(args),
});

export const TaskUpdatesSinceInput = z.strictObject({
  task_id: taskId,
  session_id: sessionId,
  since_ts: timestampMs.describe('epoch ms'),
  limit: limit(50, 200),
});
export type TaskUpdatesSinceInput = z.output<typeof TaskUpdatesSinceInput>;

export const taskUpdatesSince = defineTool({
  name: 'task_updates_since',
  title: 'Task updates',
  description: "Others' posts on a task after since_ts, oldest first.",
  input: TaskUpdatesSinceInput,
  core: true,
  mutates: false,
  docs: {
    returns: '[ { id, kind, session_id, ts } ] oldest first; page on with the last ts.',
    errors: ['TASK_NOT_FOUND'],
    example: { task_id: 17, session_id: 'sess_abc', since_ts: 1714000000000, limit: 50 },
  },
  handler: (args, b: Host) => b.tasks.updatesSince(args),
});

export const TaskPostInput = z.strictObject({
  task_id: taskId,
  session_id: sessionId,
  kind: z.enum(TASK_POST_KINDS),
  content,
  reply_to: observationId.optional(),
});
export type TaskPostInput = z.output<typeof TaskPostInput>;

export const taskPost = defineTool({
  name: 'task_post',
  title: 'Post to task',
  description: 'Post a question, answer, decision, blocker, note or warning.',
  input: TaskPostInput,
  core: true,
  mutates: true,
  hints: { destructive: false, idempotent: false },
  docs: {
    returns:
      '{ id, hint } plus `recommendation` (pointing at task_propose) when a note or decision reads as ' +
      'future work, and for posts that name an agent and ask for action: route_to_task_message: true, ' +
      'misrouted_directed_coordination: true, replacement_tool: "task_message", suggested_args.',
    errors: [
      'TASK_NOT_FOUND',
      'SESSION_NOT_FOUND',
      'NOT_PARTICIPANT',
      'OBSERVATION_NOT_FOUND',
      'OBSERVATION_NOT_ON_TASK',
    ],
    notes:
      'The poster must have joined the thread (task_thread). reply_to must be an observation on the ' +
      'same task. Use task_note_working for current working state when you do not know task_id, and ' +
      'task_message for directed agent-to-agent coordination. The warning kinds show up compactly in ' +
      'search and context tools so other agents do not repeat a bad path.',
    example: {
      task_id: 17,
      session_id: 'sess_abc',
      kind: 'decision',
      content: 'Using BM25 + cosine hybrid with alpha=0.5',
    },
  },
  handler: (args, b: Host) => b.tasks.post(args),
});

const pointerField = z.string().max(500);

export const TaskNoteWorkingInput = z.strictObject({
  session_id: sessionId,
  content,
  repo_root: repoRoot.optional(),
  branch: branchName.optional(),
  pointer: z
    .strictObject({
      branch: pointerField.optional(),
      task: pointerField.optional(),
      blocker: pointerField.optional(),
      next: pointerField.optional(),
      evidence: pointerField.optional(),
    })
    .optional(),
  allow_omx_notepad_fallback: z.boolean().default(false),
});
export type TaskNoteWorkingInput = z.output<typeof TaskNoteWorkingInput>;

export const taskNoteWorking = defineTool({
  name: 'task_note_working',
  title: 'Note working state',
  description: 'Save working state to your active task.',
  input: TaskNoteWorkingInput,
  core: true,
  mutates: true,
  hints: { destructive: false, idempotent: false },
  docs: {
    returns: '{ observation_id, id, task_id } plus omx_notepad_path / warning when the OMX pointer bridge is on.',
    errors: ['ACTIVE_TASK_NOT_FOUND', 'AMBIGUOUS_ACTIVE_TASK'],
    notes:
      'Posts kind "note" (metadata.working: true) when exactly one active task of the session matches. ' +
      'Several matches answer AMBIGUOUS_ACTIVE_TASK with compact `candidates` (task_id, repo_root, ' +
      'branch, status, updated_at, agent); none answers ACTIVE_TASK_NOT_FOUND. With settings ' +
      'bridge.writeOmxNotepadPointer=true a successful note also appends a one-line pointer (branch, ' +
      'task, blocker, next, evidence, colony_observation_id) to <repo_root>/.omx/notepad.md (the note ' +
      'is never duplicated there; if the pointer cannot be written the note still stands and `warning` ' +
      'says why). With allow_omx_notepad_fallback:true, repo_root given and no match, the pointer is ' +
      'written even though the note is not, and the ACTIVE_TASK_NOT_FOUND error says where ' +
      '(`omx_notepad_path`) or why not (`omx_notepad_warning`). Ambiguity never writes the fallback. ' +
      'repo_root must be an existing directory for any pointer.',
    example: {
      session_id: 'sess_abc',
      content:
        'branch=agent/codex/current-work; task=finish API slice; blocker=none; next=run typecheck; ' +
        'evidence=tests/api.test.ts',
    },
  },
  handler: (args, b: Host) => b.tasks.noteWorking(args),
});

export const taskTools = [taskThread, taskList, taskTimeline, taskUpdatesSince, taskPost, taskNoteWorking];

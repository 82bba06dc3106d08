/**
 * @module backend-memory
 * Memory and task threads: search hits, bodies, timelines, recall; threads, posts,
 * working notes. Part of the backend contract (see `backend`).
 */
import type { BudgetInfo } from './backend';
import type {
  GetObservationsInput,
  ListSessionsInput,
  RecallSessionInput,
  SearchInput,
  TimelineInput,
} from './tools/memory';
import type {
  TaskListInput,
  TaskNoteWorkingInput,
  TaskPostInput,
  TaskThreadInput,
  TaskTimelineInput,
  TaskUpdatesSinceInput,
} from './tools/tasks';

export interface SearchHit {
  id: number;
  session_id: string;
  kind: string;
  snippet: string;
  score: number;
  ts: number;
  task_id: number | null;
}

export interface ObservationBody {
  id: number;
  session_id: string;
  kind: string;
  ts: number;
  task_id: number | null;
  content: string;
  metadata: Record<string, unknown> | null;
}

export interface TimelineEntry {
  id: number;
  kind: string;
  ts: number;
}

export interface SessionSummary {
  id: string;
  ide: string;
  cwd: string | null;
  started_at: number;
  ended_at: number | null;
}

export interface RecallResult {
  recall_observation_id: number;
  session: SessionSummary;
  observations: TimelineEntry[];
}

export interface MemoryBackend {
  search(args: SearchInput): SearchHit[];
  getObservations(args: GetObservationsInput): ObservationBody[];
  timeline(args: TimelineInput): TimelineEntry[];
  listSessions(args: ListSessionsInput): SessionSummary[];
  recallSession(args: RecallSessionInput): RecallResult;
}

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
  thread(args: TaskThreadInput): TaskThreadResult;
  list(args: TaskListInput): TaskListResult;
  timeline(args: TaskTimelineInput): TaskTimelineEntry[];
  updatesSince(args: TaskUpdatesSinceInput): TaskUpdate[];
  post(args: TaskPostInput): TaskPostResult;
  noteWorking(args: TaskNoteWorkingInput): NoteWorkingResult;
}

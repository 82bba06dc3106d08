/**
 * @module backend
 * What a backend must provide for the tools to run: one method per tool, taking the
 * validated contract arguments and answering the contract's shapes (snake_case, as on
 * the wire). @swarm/coordination implements it on SQLite; another store could too.
 * Methods throw ColonyError for refusals; they run synchronously so a mutating call
 * and its idempotency record commit in one transaction.
 */
import type { SwarmBackend } from './backend-swarm';
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

export interface ColonyBackend {
  readonly memory: MemoryBackend;
  readonly tasks: TaskBackend;
  /** Seed-000 framework tools (toolset `framework`). */
  readonly swarm: SwarmBackend;
}

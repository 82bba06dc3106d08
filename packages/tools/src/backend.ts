/**
 * @module backend
 * What a backend must provide for the tools to run: one method per tool, taking the
 * validated contract arguments and answering the contract's shapes (snake_case, as on
 * the wire). @swarm/coordination implements it on SQLite; another store could too.
 * Methods throw ColonyError for refusals; they run synchronously so a mutating call
 * and its idempotency record commit in one transaction.
 */
import type { SwarmBackend } from './backend-swarm';
import type { TaskLinkInput, TaskLinksInput, TaskUnlinkInput } from './tools/links';
import type {
  GetObservationsInput,
  ListSessionsInput,
  RecallSessionInput,
  SearchInput,
  TimelineInput,
} from './tools/memory';
import type {
  TaskMessageClaimInput,
  TaskMessageInput,
  TaskMessageMarkReadInput,
  TaskMessageRetractInput,
  TaskMessagesInput,
} from './tools/messages';
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

export type MessageTarget = 'claude' | 'codex' | 'any';
export type MessageUrgency = 'fyi' | 'needs_reply' | 'blocking';
export type MessageStatus = 'unread' | 'read' | 'replied' | 'expired' | 'retracted';

export interface MessageSent {
  message_observation_id: number;
  status: 'unread';
}

/** The arguments of a reply, ready to fill in `content` and send with task_message. */
export interface MessageReplyArgs {
  task_id: number;
  session_id: string;
  agent: string;
  to_agent: MessageTarget;
  to_session_id: string;
  reply_to: number;
  urgency: MessageUrgency;
  content: string;
}

/** One compact inbox entry: addressing, lifecycle and action hints, never the body. */
export interface MessageEntry {
  id: number;
  task_id: number;
  ts: number;
  from_session_id: string;
  from_agent: string;
  to_agent: string;
  to_session_id: string | null;
  urgency: string;
  status: string;
  reply_to: number | null;
  preview: string;
  expires_at: number | null;
  is_claimable_broadcast: boolean;
  claimed_by_session_id: string | null;
  claimed_by_agent: string | null;
  reply_tool: 'task_message';
  suggested_reply_args: MessageReplyArgs;
  mark_read_tool: 'task_message_mark_read';
}

export interface MessageStatusResult {
  status: MessageStatus;
}

export interface MessageClaimed {
  status: 'claimed';
  claimed_by_session_id: string;
  claimed_by_agent: string;
  claimed_at: number;
}

export interface MessageBackend {
  send(args: TaskMessageInput): MessageSent;
  list(args: TaskMessagesInput): MessageEntry[];
  markRead(args: TaskMessageMarkReadInput): MessageStatusResult;
  retract(args: TaskMessageRetractInput): MessageStatusResult;
  claim(args: TaskMessageClaimInput): MessageClaimed;
}

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
  link(args: TaskLinkInput): TaskLinkResult;
  links(args: TaskLinksInput): LinkedTaskEntry[];
  unlink(args: TaskUnlinkInput): { removed: boolean };
}

export interface ColonyBackend {
  readonly memory: MemoryBackend;
  readonly tasks: TaskBackend;
  readonly messages: MessageBackend;
  readonly links: LinkBackend;
  /** Seed-000 framework tools (toolset `framework`). */
  readonly swarm: SwarmBackend;
}

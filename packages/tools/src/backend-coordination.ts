/**
 * @module backend-coordination
 * Agents side by side: directed messages, task links, file claims and drift, handoffs,
 * relays and quota claims. Part of the backend contract (see `backend`).
 */
import type { BudgetInfo } from './backend';
import type { ClaimAgeClass, TaskClaimFileInput, TaskDriftCheckInput } from './tools/claims';
import type {
  TaskAcceptHandoffInput,
  TaskAcceptRelayInput,
  TaskDeclineHandoffInput,
  TaskDeclineRelayInput,
  TaskHandOffInput,
  TaskRelayInput,
} from './tools/handoffs';
import type { TaskLinkInput, TaskLinksInput, TaskUnlinkInput } from './tools/links';
import type {
  TaskMessageClaimInput,
  TaskMessageInput,
  TaskMessageMarkReadInput,
  TaskMessageRetractInput,
  TaskMessagesInput,
} from './tools/messages';
import type {
  TaskClaimQuotaAcceptInput,
  TaskClaimQuotaDeclineInput,
  TaskClaimQuotaReleaseExpiredInput,
} from './tools/quota';

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

/** Another session's claim on the same repository file, as task_claim_file reports it. */
export interface ClaimOverlap {
  session_id: string;
  agent: string;
  task_id: number;
  claimed_at: number;
  age_class: ClaimAgeClass;
}

export interface ClaimFileResult {
  observation_id: number;
  /** Set when someone else holds a fresh or handoff_pending claim on the file. */
  warning?: string;
  overlaps?: ClaimOverlap[];
  /** Others' stale or weak claims on the file: history, not ownership. */
  weak_stale?: ClaimOverlap[];
}

export interface DriftCheckResult {
  generated_at: number;
  task_id: number;
  session_id: string;
  window_minutes: number;
  claimed_files: string[];
  edited_files: string[];
  edits_without_claim: string[];
  claims_without_edits: string[];
  drift_score: number;
  recommendation: string;
  next_tool: 'task_claim_file' | null;
  next_args: Array<{ session_id: string; task_id: number; file_path: string }> | null;
  budget: BudgetInfo;
}

export interface ClaimBackend {
  claimFile(args: TaskClaimFileInput): ClaimFileResult;
  driftCheck(args: TaskDriftCheckInput): DriftCheckResult;
}

export interface HandOffResult {
  handoff_observation_id: number;
  status: 'pending';
}

export interface RelayResult {
  relay_observation_id: number;
  status: 'pending';
  /** Set when fetch_files_at was omitted. */
  warning?: string;
}

export interface AcceptBatonResult {
  status: 'accepted';
  task_id: number;
  /** Files now claimed by the acceptor, repo-relative. */
  claimed_files: string[];
}

export interface DeclineBatonResult {
  status: 'cancelled';
}

export interface QuotaAcceptResult extends AcceptBatonResult {
  handoff_observation_id: number;
}

export interface QuotaDeclineResult {
  status: 'pending';
  handoff_observation_id: number;
  to_agent: 'any';
}

export interface QuotaReleaseResult {
  expired_observation_ids: number[];
  weak_expired_files: string[];
}

export interface BatonBackend {
  handOff(args: TaskHandOffInput): HandOffResult;
  acceptHandoff(args: TaskAcceptHandoffInput): AcceptBatonResult;
  declineHandoff(args: TaskDeclineHandoffInput): DeclineBatonResult;
  relay(args: TaskRelayInput): RelayResult;
  acceptRelay(args: TaskAcceptRelayInput): AcceptBatonResult;
  declineRelay(args: TaskDeclineRelayInput): DeclineBatonResult;
  quotaAccept(args: TaskClaimQuotaAcceptInput): QuotaAcceptResult;
  quotaDecline(args: TaskClaimQuotaDeclineInput): QuotaDeclineResult;
  quotaReleaseExpired(args: TaskClaimQuotaReleaseExpiredInput): QuotaReleaseResult;
}

/**
 * @module tools/quota
 * Quota claims: the handoff_pending claims a relay (or handoff) leaves behind when its
 * sender ran out of quota. Adopt them, decline them without cancelling the baton (it is
 * re-addressed to any agent), or weaken the ones whose time ran out.
 */
import { z } from 'zod';
import { defineTool } from '../define-tool';
import type { ErrorCode } from '../errors';
import { agentName, filePath, observationId, sessionId, shortText, taskId } from '../schemas';
import type { AcceptBatonResult } from './handoffs';

/** The baton is named by its observation id, or by one file it holds a pending claim on. */
const batonRef = {
  handoff_observation_id: observationId.optional(),
  file_path: filePath.optional(),
};

/** Refusals of every quota tool: the task, the caller, and the baton reference. */
const REF_ERRORS: readonly ErrorCode[] = [
  'TASK_NOT_FOUND',
  'SESSION_NOT_FOUND',
  'NOT_PARTICIPANT',
  'PATH_OUTSIDE_REPO',
  'OBSERVATION_NOT_FOUND',
  'OBSERVATION_NOT_ON_TASK',
];

const REF_NOTE =
  'Name the baton (a handoff or relay on task_id) by handoff_observation_id, or by file_path: the ' +
  'newest pending baton holding a handoff_pending claim on that file. Giving neither is ' +
  'INVALID_PARAMETERS; a baton on another task is OBSERVATION_NOT_ON_TASK; no such baton is ' +
  'OBSERVATION_NOT_FOUND.';

export const TaskClaimQuotaAcceptInput = z.strictObject({
  task_id: taskId,
  session_id: sessionId,
  agent: agentName.optional(),
  ...batonRef,
});
export type TaskClaimQuotaAcceptInput = z.output<typeof TaskClaimQuotaAcceptInput>;

/** Unlike task_accept_handoff's bare status, a quota accept names what it took over. */
export interface QuotaAcceptResult extends AcceptBatonResult {
  handoff_observation_id: number;
  task_id: number;
  /** Files now claimed by the acceptor, repo-relative. */
  claimed_files: string[];
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

/** Quota-claim batons: ColonyBackend.batons answers these beside the handoff ones. */
export interface QuotaBackend {
  quotaAccept(args: TaskClaimQuotaAcceptInput): Promise<QuotaAcceptResult>;
  quotaDecline(args: TaskClaimQuotaDeclineInput): Promise<QuotaDeclineResult>;
  quotaReleaseExpired(args: TaskClaimQuotaReleaseExpiredInput): Promise<QuotaReleaseResult>;
}

/** The part of ColonyBackend these tools call (backend.ts composes the whole). */
type Host = { readonly batons: QuotaBackend };

export const taskClaimQuotaAccept = defineTool({
  name: 'task_claim_quota_accept',
  title: 'Accept quota claims',
  description: 'Adopt quota-pending claims with their baton.',
  input: TaskClaimQuotaAcceptInput,
  mutates: true,
  hints: { destructive: false, idempotent: false },
  docs: {
    returns: "{ status: 'accepted', handoff_observation_id, task_id, claimed_files }",
    errors: [
      ...REF_ERRORS,
      'NOT_TARGET_AGENT',
      'NOT_TARGET_SESSION',
      'HANDOFF_EXPIRED',
      'ALREADY_ACCEPTED',
      'HANDOFF_CANCELLED',
    ],
    notes:
      `Accepts the baton exactly as task_accept_handoff / task_accept_relay do (same targeting, expiry ` +
      `and race rules): every transferred claim moves to the replacement session, the baton turns ` +
      `accepted, and a \`quota_accepted\` observation records it. \`agent\` defaults to the agent you ` +
      `joined the task as (a different family is INVALID_PARAMETERS). ${REF_NOTE}`,
    example: { task_id: 17, session_id: 'sess_replacement', agent: 'codex', handoff_observation_id: 812 },
  },
  handler: (args, b: Host) => b.batons.quotaAccept(args),
});

export const TaskClaimQuotaDeclineInput = z.strictObject({
  task_id: taskId,
  session_id: sessionId,
  ...batonRef,
  reason: shortText.optional(),
});
export type TaskClaimQuotaDeclineInput = z.output<typeof TaskClaimQuotaDeclineInput>;

export const taskClaimQuotaDecline = defineTool({
  name: 'task_claim_quota_decline',
  title: 'Decline quota claims',
  description: 'Decline quota-pending claims.',
  input: TaskClaimQuotaDeclineInput,
  mutates: true,
  hints: { destructive: false, idempotent: false },
  docs: {
    returns: "{ status: 'pending', handoff_observation_id, to_agent: 'any' }",
    errors: [
      ...REF_ERRORS,
      'NOT_TARGET_AGENT',
      'NOT_TARGET_SESSION',
      'HANDOFF_EXPIRED',
      'ALREADY_ACCEPTED',
      'HANDOFF_CANCELLED',
    ],
    notes:
      `A target of the baton declines it: the baton stays pending, now addressed to any agent and no ` +
      `particular session, its claims stay handoff_pending, and a \`quota_declined\` observation ` +
      `records the reason. ${REF_NOTE}`,
    example: {
      task_id: 17,
      session_id: 'sess_abc',
      file_path: 'apps/api/src/routes.ts',
      reason: 'outside this worktree',
    },
  },
  handler: (args, b: Host) => b.batons.quotaDecline(args),
});

export const TaskClaimQuotaReleaseExpiredInput = z.strictObject({
  task_id: taskId,
  session_id: sessionId,
  ...batonRef,
});
export type TaskClaimQuotaReleaseExpiredInput = z.output<typeof TaskClaimQuotaReleaseExpiredInput>;

export const taskClaimQuotaReleaseExpired = defineTool({
  name: 'task_claim_quota_release_expired',
  title: 'Expire quota claims',
  description: 'Expire overdue quota-pending claims and batons.',
  input: TaskClaimQuotaReleaseExpiredInput,
  mutates: true,
  hints: { destructive: true, idempotent: true },
  docs: {
    returns:
      '{ expired_observation_ids, weak_expired_files }: the batons marked expired and the files whose claims weakened.',
    errors: REF_ERRORS,
    notes:
      'Any participant may sweep. handoff_pending claims past their expiry become weak_expired and ' +
      'pending batons past theirs become expired, each expiry with a `handoff_expired` / ' +
      '`relay_expired` observation; rows stay for audit. Omit handoff_observation_id and file_path to ' +
      'sweep the whole task. Nothing overdue: empty lists, nothing written.',
    example: { task_id: 17, session_id: 'sess_abc', handoff_observation_id: 812 },
  },
  handler: (args, b: Host) => b.batons.quotaReleaseExpired(args),
});

export const quotaTools = [taskClaimQuotaAccept, taskClaimQuotaDecline, taskClaimQuotaReleaseExpired];

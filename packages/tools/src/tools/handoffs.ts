/**
 * @module tools/handoffs
 * Batons: a handoff passes work (and optionally file claims) to another agent who is
 * around to accept it; a relay does the same when the sender may be gone (quota, rate
 * limit, turn cap), weakening the sender's fresh claims and carrying a worktree recipe.
 * Exactly one acceptor wins; every change leaves an audit observation.
 */
import { z } from 'zod';
import { defineTool, type ToolDocs } from '../define-tool';
import type { ErrorCode } from '../errors';
import {
  agentName,
  branchName,
  filePath,
  observationId,
  sessionId,
  shortText,
  targetAgent,
  taskId,
  ttlMinutes,
} from '../schemas';

/** Handoffs stay pending this long unless `expires_in_minutes` says otherwise. */
export const HANDOFF_TTL_MINUTES = 120;
/** Relays are short-lived: the sender's claims wait this long by default. */
export const RELAY_TTL_MINUTES = 60;
/** The longest a handoff or relay may stay pending. */
export const BATON_TTL_MAX_MINUTES = 1440;
export const RELAY_REASONS = ['quota', 'rate_limit', 'turn_cap', 'manual'] as const;

const summaryText = z.string().min(1).max(2000);
const lines = z.array(shortText).max(20).optional();

/** Refusals shared by accepting or declining any baton. */
const RESOLVE_ERRORS: readonly ErrorCode[] = [
  'OBSERVATION_NOT_FOUND',
  'SESSION_NOT_FOUND',
  'NOT_PARTICIPANT',
  'NOT_TARGET_AGENT',
  'NOT_TARGET_SESSION',
  'HANDOFF_EXPIRED',
  'ALREADY_ACCEPTED',
  'HANDOFF_CANCELLED',
];

const TARGETING =
  'to_agent matches the agent the session joined the task as by family (an agent name starting ' +
  'with claude or cc is claude; codex... is codex); to_agent "any" matches everyone. When ' +
  'to_session_id is set only that session may accept (NOT_TARGET_SESSION), and the sender can ' +
  'never accept its own baton.';
const RESOLUTION =
  'An id that is no handoff (or no relay, for the relay tools) answers OBSERVATION_NOT_FOUND with ' +
  "the observation's `kind` when it exists. A baton resolves once: a later accept or decline " +
  'answers ALREADY_ACCEPTED, HANDOFF_CANCELLED or HANDOFF_EXPIRED. Past its expiry a pending baton ' +
  'answers HANDOFF_EXPIRED and is marked expired (its pending claims become weak_expired) with an ' +
  'audit observation, unless the call carried an idempotency_key (then the mark waits for the next ' +
  'call or task_claim_quota_release_expired).';

export const TaskHandOffInput = z.strictObject({
  task_id: taskId,
  session_id: sessionId,
  agent: agentName.optional(),
  to_agent: targetAgent,
  to_session_id: sessionId.optional(),
  summary: summaryText,
  next_steps: lines,
  blockers: lines,
  transferred_files: z.array(filePath).max(100).optional(),
  expires_in_minutes: ttlMinutes(HANDOFF_TTL_MINUTES, BATON_TTL_MAX_MINUTES),
});
export type TaskHandOffInput = z.output<typeof TaskHandOffInput>;

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

/** Just the status: the baton named the task, and the accepted observation lists the files. */
export interface AcceptBatonResult {
  status: 'accepted';
}

export interface DeclineBatonResult {
  status: 'cancelled';
}

export interface BatonBackend {
  handOff(args: TaskHandOffInput): Promise<HandOffResult>;
  acceptHandoff(args: TaskAcceptHandoffInput): Promise<AcceptBatonResult>;
  declineHandoff(args: TaskDeclineHandoffInput): Promise<DeclineBatonResult>;
  relay(args: TaskRelayInput): Promise<RelayResult>;
  acceptRelay(args: TaskAcceptRelayInput): Promise<AcceptBatonResult>;
  declineRelay(args: TaskDeclineRelayInput): Promise<DeclineBatonResult>;
}

/** The part of ColonyBackend these tools call (backend.ts composes the whole). */
type Host = { readonly batons: BatonBackend };

export const taskHandOff = defineTool({
  name: 'task_hand_off',
  title: 'Hand off',
  description: 'Hand your work and claims to another agent.',
  input: TaskHandOffInput,
  core: true,
  mutates: true,
  hints: { destructive: false, idempotent: false },
  docs: {
    returns: "{ handoff_observation_id, status: 'pending' }",
    errors: ['TASK_NOT_FOUND', 'SESSION_NOT_FOUND', 'NOT_PARTICIPANT', 'PATH_OUTSIDE_REPO'],
    notes:
      `to_agent: claude | codex | any (any broadcasts). Optional to_session_id addresses one session. ` +
      `The sender must have joined the task; \`agent\` defaults to the agent it joined as (a different ` +
      `family is INVALID_PARAMETERS). transferred_files are normalised like task_claim_file paths; the ` +
      `sender's live claims on them become handoff_pending until the handoff resolves, and accepting ` +
      `installs a claim on every one of them for the acceptor. Pending for ${HANDOFF_TTL_MINUTES} ` +
      `minutes by default (expires_in_minutes, max ${BATON_TTL_MAX_MINUTES}); expired handoffs stay in ` +
      `the audit trail. Appends a \`handoff\` observation carrying the summary, next steps, blockers ` +
      `and files.`,
    example: {
      task_id: 17,
      session_id: 'sess_abc',
      agent: 'claude',
      to_agent: 'codex',
      summary: 'Implementation landed. Codex: run the publish e2e script.',
      next_steps: ['run scripts/e2e-publish.sh'],
      blockers: [],
      transferred_files: ['apps/cli/scripts/prepack.mjs'],
      expires_in_minutes: 60,
    },
  },
  handler: (args, b: Host) => b.batons.handOff(args),
});

export const TaskAcceptHandoffInput = z.strictObject({ handoff_observation_id: observationId, session_id: sessionId });
export type TaskAcceptHandoffInput = z.output<typeof TaskAcceptHandoffInput>;

const acceptDocs = (kind: 'handoff' | 'relay', example: Record<string, unknown>): ToolDocs => ({
  returns: "{ status: 'accepted' }",
  errors: RESOLVE_ERRORS,
  notes:
    `The acceptor must have joined the ${kind}'s task. In one transaction the baton turns accepted ` +
    `(a guarded update: of many racing acceptors exactly one wins, the rest get ALREADY_ACCEPTED), ` +
    `the sender's live claims on the transferred files are released and the acceptor holds an active ` +
    `claim on each, and a \`${kind}_accepted\` observation (metadata.claimed_files) is appended. The ` +
    `answer is the status alone (issue 17 dropped task_id and claimed_files to save tokens: the ` +
    `${kind} named the task, and attention_inbox or task_claim_file show the claims). ${TARGETING} ` +
    `${RESOLUTION}`,
  example,
});

export const taskAcceptHandoff = defineTool({
  name: 'task_accept_handoff',
  title: 'Accept handoff',
  description: 'Accept a handoff; its claims become yours.',
  input: TaskAcceptHandoffInput,
  core: true,
  mutates: true,
  hints: { destructive: false, idempotent: false },
  docs: acceptDocs('handoff', { handoff_observation_id: 401, session_id: 'sess_xyz' }),
  handler: (args, b: Host) => b.batons.acceptHandoff(args),
});

export const TaskDeclineHandoffInput = z.strictObject({
  handoff_observation_id: observationId,
  session_id: sessionId,
  reason: shortText.optional(),
});
export type TaskDeclineHandoffInput = z.output<typeof TaskDeclineHandoffInput>;

const declineDocs = (kind: 'handoff' | 'relay', claims: string, example: Record<string, unknown>): ToolDocs => ({
  returns: "{ status: 'cancelled' }",
  errors: RESOLVE_ERRORS,
  notes:
    `A target of the ${kind} declines it, or its sender withdraws it. The baton turns cancelled with ` +
    `the reason, ${claims}, and a \`${kind}_declined\` observation is appended. Declining an expired ` +
    `${kind} answers HANDOFF_EXPIRED and marks it expired instead of cancelling it. ${TARGETING} ` +
    `${RESOLUTION}`,
  example,
});

export const taskDeclineHandoff = defineTool({
  name: 'task_decline_handoff',
  title: 'Decline handoff',
  description: 'Decline a handoff, or withdraw yours.',
  input: TaskDeclineHandoffInput,
  core: true,
  mutates: true,
  hints: { destructive: false, idempotent: false },
  docs: declineDocs('handoff', "the sender's handoff_pending claims go back to active", {
    handoff_observation_id: 401,
    session_id: 'sess_xyz',
    reason: 'out of scope for this branch',
  }),
  handler: (args, b: Host) => b.batons.declineHandoff(args),
});

export const TaskRelayInput = z.strictObject({
  task_id: taskId,
  session_id: sessionId,
  agent: agentName.optional(),
  reason: z.enum(RELAY_REASONS),
  one_line: shortText,
  base_branch: branchName,
  to_agent: targetAgent.default('any'),
  fetch_files_at: z.string().min(1).max(200).optional(),
  expires_in_minutes: ttlMinutes(RELAY_TTL_MINUTES, BATON_TTL_MAX_MINUTES),
});
export type TaskRelayInput = z.output<typeof TaskRelayInput>;

export const taskRelay = defineTool({
  name: 'task_relay',
  title: 'Relay work',
  description: 'Hand off unfinished work when you may stop.',
  input: TaskRelayInput,
  mutates: true,
  hints: { destructive: false, idempotent: false },
  docs: {
    returns: "{ relay_observation_id, status: 'pending' } plus `warning` when fetch_files_at is omitted.",
    errors: ['TASK_NOT_FOUND', 'SESSION_NOT_FOUND', 'NOT_PARTICIPANT'],
    notes:
      `reason: ${RELAY_REASONS.join(' | ')}; to_agent defaults to any. Unlike task_hand_off the sender ` +
      `is assumed gone: its fresh active claims on the task become handoff_pending until the relay ` +
      `expires (${RELAY_TTL_MINUTES} minutes by default, max ${BATON_TTL_MAX_MINUTES}); stale and weak ` +
      `claims are never inherited. The relay carries a worktree_recipe { repo_root, base_branch, ` +
      `branch, fetch_files_at, claimed_files, touched_files, steps } (touched_files: the sender's ` +
      `recent edits on the task), readable with get_observations. Without fetch_files_at the answer ` +
      `warns that dirty or untracked files may need human coordination. Appends a \`relay\` ` +
      `observation.`,
    example: {
      task_id: 17,
      session_id: 'sess_sender',
      agent: 'codex',
      reason: 'quota',
      one_line: 'Docs patch is half-written; finish missing relay sections.',
      base_branch: 'main',
      to_agent: 'any',
      fetch_files_at: 'abc1234',
      expires_in_minutes: 60,
    },
  },
  handler: (args, b: Host) => b.batons.relay(args),
});

export const TaskAcceptRelayInput = z.strictObject({ relay_observation_id: observationId, session_id: sessionId });
export type TaskAcceptRelayInput = z.output<typeof TaskAcceptRelayInput>;

export const taskAcceptRelay = defineTool({
  name: 'task_accept_relay',
  title: 'Accept relay',
  description: 'Accept a relay and its claims.',
  input: TaskAcceptRelayInput,
  mutates: true,
  hints: { destructive: false, idempotent: false },
  docs: acceptDocs('relay', { relay_observation_id: 901, session_id: 'sess_receiver' }),
  handler: (args, b: Host) => b.batons.acceptRelay(args),
});

export const TaskDeclineRelayInput = z.strictObject({
  relay_observation_id: observationId,
  session_id: sessionId,
  reason: shortText.optional(),
});
export type TaskDeclineRelayInput = z.output<typeof TaskDeclineRelayInput>;

export const taskDeclineRelay = defineTool({
  name: 'task_decline_relay',
  title: 'Decline relay',
  description: 'Decline a relay.',
  input: TaskDeclineRelayInput,
  mutates: true,
  hints: { destructive: false, idempotent: false },
  docs: declineDocs('relay', 'its handoff_pending claims become weak_expired (ownership left free)', {
    relay_observation_id: 901,
    session_id: 'sess_receiver',
    reason: 'branch already pruned',
  }),
  handler: (args, b: Host) => b.batons.declineRelay(args),
});

export const handoffTools = [
  taskHandOff,
  taskAcceptHandoff,
  taskDeclineHandoff,
  taskRelay,
  taskAcceptRelay,
  taskDeclineRelay,
];

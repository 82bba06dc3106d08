/**
 * @module tools/rescue
 * Rescuing stranded work: sessions that stopped heartbeating while holding live file
 * claims or claimed plan sub-tasks. The scan only reads; the run (after explicit
 * confirmation) emits a rescue relay per stranded task and releases the claims, so
 * any agent can pick the work up. It never assigns the work to a particular agent.
 */
import { z } from 'zod';
import { defineTool } from '../define-tool';
import type { BudgetInfo } from '../schemas';

/** A session is stranded once its last heartbeat is this many minutes old (by default). */
export const STRANDED_AFTER_MINUTES = 10;
/** Most (session, task) entries one scan or run reports or rescues; a later run takes the rest. */
export const RESCUE_BATCH = 100;

const strandedAfter = z.int().min(1).max(10_080).default(STRANDED_AFTER_MINUTES);

export const RescueStrandedScanInput = z.strictObject({ stranded_after_minutes: strandedAfter });
export type RescueStrandedScanInput = z.output<typeof RescueStrandedScanInput>;

const RETURNS =
  `{ dry_run, stranded: [ { session_id, agent, last_heartbeat_at, stale_age_minutes, task_ids, ` +
  `held_claim_count } ], rescued: [ { session_id, agent, task_id, repo_root, branch, ` +
  `released_claims, inherited_claims, stale_age_minutes, blocking_urgency, ` +
  `message_attention_state, suggested_action, plan_slug?, subtask_index?, wave_index?, ` +
  `blocked_downstream_count?, releases_subtask? } ], remaining, budget }`;
const ORDER =
  `A session is stranded when its last heartbeat (any observation it appended, task_thread, or any ` +
  `tool call made with its session_id) is older than stranded_after_minutes (default ` +
  `${STRANDED_AFTER_MINUTES}, max 10080) and it still holds active file claims or a claimed plan ` +
  `sub-task. rescued has one entry per (session, task), ordered by blocking_urgency ` +
  `(blocks_downstream before local_claim), then stale_age_minutes (oldest first), then ` +
  `blocked_downstream_count (not counting completed downstream sub-tasks), then ` +
  `message_attention_state (blocking_message, needs_reply_message, fyi_message, ` +
  `no_pending_message: unread messages to the stranded session on that task), then task id. At ` +
  `most ${RESCUE_BATCH} entries per call; remaining counts the rest, and budget counts this batch ` +
  `plus remaining against the entries returned.`;

/** A session that stopped heartbeating while holding claims. */
export interface StrandedSession {
  session_id: string;
  agent: string;
  last_heartbeat_at: number;
  stale_age_minutes: number;
  task_ids: number[];
  held_claim_count: number;
}

export type BlockingUrgency = 'blocks_downstream' | 'local_claim';

export type MessageAttentionState = 'blocking_message' | 'needs_reply_message' | 'fyi_message' | 'no_pending_message';

/** One stranded (session, task): what a rescue does or did to it. */
export interface RescueEntry {
  session_id: string;
  agent: string;
  task_id: number;
  repo_root: string;
  branch: string;
  /** The session's active claims on the task, released by the rescue. */
  released_claims: string[];
  /** The fresh ones among them: the relay's transferred files. */
  inherited_claims: string[];
  stale_age_minutes: number;
  blocking_urgency: BlockingUrgency;
  message_attention_state: MessageAttentionState;
  suggested_action: string;
  plan_slug?: string;
  subtask_index?: number;
  wave_index?: number;
  blocked_downstream_count?: number;
  /** Set when the stranded session holds the plan sub-task claimed: the rescue makes it available again. */
  releases_subtask?: true;
  /** Set by rescue_stranded_run. */
  relay_observation_id?: number;
  rescue_observation_id?: number;
}

export interface RescueOutcome {
  dry_run: boolean;
  stranded: StrandedSession[];
  rescued: RescueEntry[];
  /** Entries past this call's batch, left for the next run. */
  remaining: number;
  budget: BudgetInfo;
}

export interface RescueBackend {
  scan(args: RescueStrandedScanInput): Promise<RescueOutcome>;
  run(args: RescueStrandedRunInput): Promise<RescueOutcome>;
}

/** The part of ColonyBackend these tools call (backend.ts composes the whole). */
type Host = { readonly rescue: RescueBackend };

export const rescueStrandedScan = defineTool({
  name: 'rescue_stranded_scan',
  title: 'Scan stranded',
  description: 'Find stranded sessions and abandoned claims.',
  input: RescueStrandedScanInput,
  mutates: false,
  docs: {
    returns: `${RETURNS} with dry_run: true.`,
    notes:
      `Read-only: what rescue_stranded_run would do now, without relays, notes or releases. ${ORDER} ` +
      `released_claims are the session's active claims on the task; inherited_claims the fresh ones a ` +
      `rescue relay would hand to whoever accepts it (stale claims are never inherited, as with ` +
      `task_relay).`,
    example: { stranded_after_minutes: 10 },
  },
  handler: (args, b: Host) => b.rescue.scan(args),
});

export const RescueStrandedRunInput = z.strictObject({
  stranded_after_minutes: strandedAfter,
  confirm: z.boolean().default(false),
});
export type RescueStrandedRunInput = z.output<typeof RescueStrandedRunInput>;

export const rescueStrandedRun = defineTool({
  name: 'rescue_stranded_run',
  title: 'Rescue stranded',
  description: "Relay stranded sessions' work and release their claims.",
  input: RescueStrandedRunInput,
  mutates: true,
  hints: { destructive: true, idempotent: false },
  docs: {
    returns:
      `${RETURNS} with dry_run: false; each rescued entry also carries relay_observation_id and ` +
      `rescue_observation_id.`,
    errors: ['RESCUE_CONFIRM_REQUIRED'],
    notes:
      `Without confirm: true it answers RESCUE_CONFIRM_REQUIRED and changes nothing. Each rescued ` +
      `(session, task) gets, in one transaction: a \`relay\` (reason stranded, to_agent any, written ` +
      `on behalf of the stranded session without counting as its heartbeat; accepting it with ` +
      `task_accept_relay claims inherited_claims), the release of the session's active claims on the ` +
      `task, the release of its claimed plan sub-task back to available (releases_subtask; with a ` +
      `plan-subtask-claim observation, status available), and a \`rescue\` observation recording all ` +
      `of it. Nothing is assigned to a particular agent. ${ORDER}`,
    example: { stranded_after_minutes: 10, confirm: true },
  },
  handler: (args, b: Host) => b.rescue.run(args),
});

export const rescueTools = [rescueStrandedScan, rescueStrandedRun];

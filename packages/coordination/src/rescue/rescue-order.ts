/**
 * @module rescue/rescue-order
 * The order a rescue takes stranded work in, and the per-session summary of it: work
 * that blocks downstream sub-tasks first, then the longest quiet, then the most
 * downstream work, then the most urgent unread message; ties by task and session.
 */
import type { FileClaim } from '@swarm/storage';
import type { BlockingUrgency, MessageAttentionState, RescueEntry, StrandedSession } from '@swarm/tools';
import { compareText } from '../compare-text';

const MINUTE = 60_000;

/** One stranded (session, task), with the session's active claims on the task (none when only a sub-task is held). */
export interface StrandedJob {
  readonly session_id: string;
  readonly agent: string;
  readonly task_id: number;
  readonly repo_root: string;
  readonly branch: string;
  readonly last_heartbeat_at: number;
  readonly claims: FileClaim[];
}

const URGENCY_RANK: Record<BlockingUrgency, number> = { blocks_downstream: 1, local_claim: 0 };
const ATTENTION_RANK: Record<MessageAttentionState, number> = {
  blocking_message: 3,
  needs_reply_message: 2,
  fyi_message: 1,
  no_pending_message: 0,
};

/** Rescue order of two entries. */
export function compareEntries(a: RescueEntry, b: RescueEntry): number {
  return (
    URGENCY_RANK[b.blocking_urgency] - URGENCY_RANK[a.blocking_urgency] ||
    b.stale_age_minutes - a.stale_age_minutes ||
    (b.blocked_downstream_count ?? 0) - (a.blocked_downstream_count ?? 0) ||
    ATTENTION_RANK[b.message_attention_state] - ATTENTION_RANK[a.message_attention_state] ||
    a.task_id - b.task_id ||
    compareText(a.session_id, b.session_id)
  );
}

/** The stranded sessions behind the jobs, longest quiet first. */
export function strandedSessions(jobs: readonly StrandedJob[], now: number): StrandedSession[] {
  const bySession = new Map<string, StrandedSession>();
  for (const job of jobs) {
    const s = bySession.get(job.session_id) ?? {
      session_id: job.session_id,
      agent: job.agent,
      last_heartbeat_at: job.last_heartbeat_at,
      stale_age_minutes: Math.floor((now - job.last_heartbeat_at) / MINUTE),
      task_ids: [],
      held_claim_count: 0,
    };
    s.task_ids.push(job.task_id);
    s.held_claim_count += job.claims.length;
    bySession.set(job.session_id, s);
  }
  return [...bySession.values()]
    .map((s) => ({ ...s, task_ids: [...new Set(s.task_ids)].sort((a, b) => a - b) }))
    .sort((a, b) => a.last_heartbeat_at - b.last_heartbeat_at || compareText(a.session_id, b.session_id));
}

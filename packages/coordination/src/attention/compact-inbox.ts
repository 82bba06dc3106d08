/**
 * @module attention/compact-inbox
 * attention_inbox's answer as sent (issue 17's token goal): the full inbox with what
 * says nothing left out. Zero counts leave the summary (`blocked` and `next_action`
 * always stay), empty buckets are omitted, and the stale-claim summary only appears
 * when there are stale claims. Composing surfaces (startup_panel) read the full inbox.
 */
import type { AttentionInbox, AttentionInboxResult, AttentionSummary } from '@swarm/tools';

type Listed = Omit<AttentionInbox, 'budget'>;

const BUCKETS = [
  'pending_handoffs',
  'pending_wakes',
  'unread_messages',
  'blockers',
  'stalled_lanes',
  'recent_other_claims',
  'file_heat',
] as const;

export function compactInbox(full: Listed): Omit<AttentionInboxResult, 'budget'> {
  const summary: Partial<AttentionSummary> = {};
  for (const [key, value] of Object.entries(full.summary) as Array<
    [keyof AttentionSummary, number | string | boolean]
  >) {
    if (value !== 0) Object.assign(summary, { [key]: value });
  }
  const answer: Omit<AttentionInboxResult, 'budget'> = {
    summary: { ...summary, blocked: full.summary.blocked, next_action: full.summary.next_action },
  };
  for (const bucket of BUCKETS) {
    const entries = full[bucket];
    if (entries.length > 0) Object.assign(answer, { [bucket]: entries });
  }
  if (full.stale_claim_signals.stale_claim_count > 0) answer.stale_claim_signals = full.stale_claim_signals;
  return answer;
}

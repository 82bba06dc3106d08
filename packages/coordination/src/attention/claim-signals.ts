/**
 * @module attention/claim-signals
 * Two readings of the same live claims, kept apart as the contract asks: fresh
 * ownership by other sessions (recent_other_claims), and the stale-claim audit summary
 * (stale_claim_signals). Which is which is the claims' own age rule (claims/age).
 */
import type { AttentionClaim } from '@swarm/storage';
import { ATTENTION_LIST_CAPS, type AttentionClaimEntry, type StaleClaimSignals } from '@swarm/tools';
import { claimAgeClass, isOwnership } from '../claims/age';

export const SWEEP_SUGGESTION =
  'History, not ownership: rescue_stranded_scan finds stopped sessions holding claims; task_claim_quota_release_expired weakens expired handoff claims.';

/**
 * Others' claims that are ownership now (fresh or handoff_pending) and were made or
 * refreshed within the window, in the order given (newest first from the store).
 */
export function recentOtherClaims(
  claims: readonly AttentionClaim[],
  readerSessionId: string,
  now: number,
  windowMs: number,
): AttentionClaimEntry[] {
  return claims
    .filter(
      (c) => c.sessionId !== readerSessionId && c.refreshedAt >= now - windowMs && isOwnership(claimAgeClass(c, now)),
    )
    .map((c) => ({
      task_id: c.taskId,
      file_path: c.filePath,
      session_id: c.sessionId,
      agent: c.agent,
      claimed_at: c.refreshedAt,
      observation_id: c.observationId,
    }));
}

/** Live claims (anyone's) that are stale or weak_expired by age: how many, on which branches, and what sweeps them. */
export function staleClaimSignals(claims: readonly AttentionClaim[], now: number): StaleClaimSignals {
  const byTask = new Map<number, { branch: string; task_id: number; stale_claim_count: number }>();
  let count = 0;
  for (const claim of claims) {
    const age = claimAgeClass(claim, now);
    if (age !== 'stale' && age !== 'weak_expired') continue;
    count += 1;
    const seen = byTask.get(claim.taskId);
    if (seen) seen.stale_claim_count += 1;
    else byTask.set(claim.taskId, { branch: claim.branch, task_id: claim.taskId, stale_claim_count: 1 });
  }
  const top = [...byTask.values()]
    .sort((a, b) => b.stale_claim_count - a.stale_claim_count || a.task_id - b.task_id)
    .slice(0, ATTENTION_LIST_CAPS.top_stale_branches);
  return { stale_claim_count: count, top_stale_branches: top, sweep_suggestion: count > 0 ? SWEEP_SUGGESTION : null };
}

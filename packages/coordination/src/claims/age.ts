/**
 * @module claims/age
 * How much a claim counts, decided at read time from the injected clock (never stored):
 * `fresh` and `handoff_pending` claims are ownership; `stale` and `weak_expired` ones
 * are history. Thresholds are the contract's (CLAIM_FRESH_MINUTES,
 * CLAIM_WEAK_AFTER_MINUTES in @swarm/tools).
 */
import type { FileClaim } from '@swarm/storage';
import { CLAIM_FRESH_MINUTES, CLAIM_WEAK_AFTER_MINUTES, type ClaimAgeClass } from '@swarm/tools';

const MINUTE = 60_000;
export const CLAIM_FRESH_MS = CLAIM_FRESH_MINUTES * MINUTE;
export const CLAIM_WEAK_AFTER_MS = CLAIM_WEAK_AFTER_MINUTES * MINUTE;

type Aged = Pick<FileClaim, 'state' | 'refreshedAt' | 'expiresAt'>;

/** The age class of a claim at `now`; null for a released claim, which no longer counts at all. */
export function claimAgeClass(claim: Aged, now: number): ClaimAgeClass | null {
  switch (claim.state) {
    case 'released':
      return null;
    case 'weak_expired':
      return 'weak_expired';
    case 'handoff_pending':
      return claim.expiresAt !== null && now >= claim.expiresAt ? 'weak_expired' : 'handoff_pending';
    default: {
      const age = now - claim.refreshedAt;
      if (age < CLAIM_FRESH_MS) return 'fresh';
      return age < CLAIM_WEAK_AFTER_MS ? 'stale' : 'weak_expired';
    }
  }
}

/** Whether a claim of this class is active ownership (others are warned about it). */
export function isOwnership(ageClass: ClaimAgeClass | null): boolean {
  return ageClass === 'fresh' || ageClass === 'handoff_pending';
}

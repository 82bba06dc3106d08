import type { ClaimState } from '../../claims';

/** The states of a claim someone holds (as `LIVE` in src/claims.ts). */
export const LIVE: ClaimState[] = ['active', 'handoff_pending'];

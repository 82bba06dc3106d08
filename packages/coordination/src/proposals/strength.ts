/**
 * @module proposals/strength
 * The strength of a proposal, computed at read time from its evidence rows and the
 * clock: deterministic and source-diverse. Each session counts once, with its strongest
 * row (repeats collapse); the first session counts in full, a later session of a new
 * agent type in full, a later session of an agent type already seen (or of an unknown
 * one) at SAME_AGENT_TYPE_FACTOR. Every row evaporates with a half-life.
 */
import type { Session } from '@swarm/storage';
import { PROPOSAL_HALF_LIFE_HOURS, SAME_AGENT_TYPE_FACTOR } from '@swarm/tools';
import { agentFamily } from '../batons/targeting';
import { inferIdeFromSessionId } from '../ide';

export interface Evidence {
  readonly sessionId: string;
  readonly agentType: string;
  /** The base weight stored with the row. */
  readonly weight: number;
  readonly ts: number;
}

export interface Strength {
  readonly strength: number;
  /** Unique sessions that gave evidence. */
  readonly sessions: number;
  readonly lastTs: number;
}

const HALF_LIFE_MS = PROPOSAL_HALF_LIFE_HOURS * 3_600_000;
export const UNKNOWN_AGENT_TYPE = 'unknown';

/** Evidence rows in the order they were written. */
export function proposalStrength(rows: readonly Evidence[], now: number): Strength {
  const strongest = new Map<string, Evidence>();
  for (const row of rows) {
    const prior = strongest.get(row.sessionId);
    if (!prior || row.weight > prior.weight) strongest.set(row.sessionId, row);
  }
  const seen = new Set<string>();
  let strength = 0;
  let first = true;
  // Map iteration follows first insertion: sessions in the order they first gave evidence.
  for (const row of strongest.values()) {
    const novel = row.agentType !== UNKNOWN_AGENT_TYPE && !seen.has(row.agentType);
    const factor = first || novel ? 1 : SAME_AGENT_TYPE_FACTOR;
    strength += row.weight * factor * 0.5 ** (Math.max(0, now - row.ts) / HALF_LIFE_MS);
    seen.add(row.agentType);
    first = false;
  }
  return {
    strength: Math.round(strength * 1000) / 1000,
    sessions: strongest.size,
    lastTs: rows.reduce((max, r) => Math.max(max, r.ts), 0),
  };
}

/**
 * A session's agent type: metadata.agent_type, else its agent, else its IDE, else the
 * IDE its id suggests; families fold (claude-code -> claude). 'unknown' when nothing says.
 */
export function agentTypeOf(session: Session): string {
  const declared = session.metadata?.agent_type;
  const candidates = [
    typeof declared === 'string' ? declared : null,
    session.agent,
    session.ide !== 'unknown' ? session.ide : null,
    inferIdeFromSessionId(session.id),
  ];
  for (const c of candidates) {
    if (c && c !== 'unknown' && c.trim() !== '') return agentFamily(c);
  }
  return UNKNOWN_AGENT_TYPE;
}

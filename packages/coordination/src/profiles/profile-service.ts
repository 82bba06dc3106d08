/**
 * @module profiles/profile-service
 * Agent capability profiles: weights in [0, 1] per kind of work, read by the ready-work
 * ranking. Agent names are keyed trimmed and lower-cased; a dimension nobody set reads
 * as DEFAULT_CAPABILITY_WEIGHT. Upserts merge inside one write transaction.
 */
import { type AgentProfile, getProfile, getProfiles, upsertProfile } from '@swarm/storage';
import {
  type AgentGetProfileInput,
  type AgentProfileResult,
  type AgentProfileView,
  type AgentUpsertProfileInput,
  CAPABILITY_DIMENSIONS,
  type CapabilityWeights,
  ColonyError,
  DEFAULT_CAPABILITY_WEIGHT,
  MAX_CAPABILITY_DIMENSIONS,
  type ProfileBackend,
} from '@swarm/tools';
import { agentFamily } from '../batons/targeting';
import type { DomainContext } from '../context';

/** The weight of every standard dimension for a profile nobody wrote. */
export const DEFAULT_CAPABILITIES: Readonly<CapabilityWeights> = Object.freeze(
  Object.fromEntries(CAPABILITY_DIMENSIONS.map((d) => [d, DEFAULT_CAPABILITY_WEIGHT])),
);

/** The key a profile is stored under. */
export function profileKey(agent: string): string {
  return agent.trim().toLowerCase();
}

/** Stored weights over the defaults: every standard dimension present. */
function withDefaults(stored: AgentProfile | undefined): CapabilityWeights {
  return { ...DEFAULT_CAPABILITIES, ...(stored?.capabilities ?? {}) };
}

export class ProfileService implements ProfileBackend {
  readonly #ctx: DomainContext;

  constructor(ctx: DomainContext) {
    this.#ctx = ctx;
  }

  async upsert(args: AgentUpsertProfileInput): Promise<AgentProfileResult> {
    const ctx = this.#ctx;
    const agent = profileKey(args.agent);
    const saved = await ctx.store.write(async () => {
      const row = await upsertProfile(ctx.store, agent, args.capabilities, ctx.clock.now());
      const dimensions = Object.keys(withDefaults(row)).length;
      if (dimensions > MAX_CAPABILITY_DIMENSIONS) {
        throw new ColonyError(
          'INVALID_PARAMETERS',
          `a profile carries at most ${MAX_CAPABILITY_DIMENSIONS} dimensions; ${agent} would have ${dimensions}`,
          { details: { fields: ['capabilities'] } },
        );
      }
      return row;
    });
    return {
      agent,
      capabilities: withDefaults(saved),
      created_at: saved.createdAt,
      updated_at: saved.updatedAt,
    };
  }

  async get(args: AgentGetProfileInput): Promise<AgentProfileView> {
    const agent = profileKey(args.agent);
    return {
      agent,
      capabilities: withDefaults(await getProfile(this.#ctx.store, agent)),
      defaults: { ...DEFAULT_CAPABILITIES },
    };
  }

  /**
   * The weights an agent works with: its own profile, else its family's ("claude-code"
   * falls back to "claude"), else the defaults.
   */
  async weightsFor(agent: string): Promise<CapabilityWeights> {
    const key = profileKey(agent);
    const family = agentFamily(key);
    const rows = await getProfiles(this.#ctx.store, key === family ? [key] : [key, family]);
    return withDefaults(rows.find((r) => r.agent === key) ?? rows.find((r) => r.agent === family));
  }
}

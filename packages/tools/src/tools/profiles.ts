/**
 * @module tools/profiles
 * Capability profiles: how well an agent type does each kind of work (weights in
 * [0, 1]). task_ready_for_agent ranks sub-tasks by the caller's weight for their
 * capability_hint; unknown agents and missing dimensions read as the default.
 */
import { z } from 'zod';
import { defineTool } from '../define-tool';
import { agentName } from '../schemas';

/** The dimensions every profile has; others may be added by name. */
export const CAPABILITY_DIMENSIONS = ['ui_work', 'api_work', 'test_work', 'infra_work', 'doc_work'] as const;
/** The weight of a dimension nobody set. */
export const DEFAULT_CAPABILITY_WEIGHT = 0.5;
/** Most dimensions one profile may carry. */
export const MAX_CAPABILITY_DIMENSIONS = 32;

/** A capability name: snake_case, as sub-task capability_hint values are written. */
export const capabilityName = z.string().regex(/^[a-z][a-z0-9_]{0,39}$/, 'must be snake_case, like api_work');
const weight = z.number().min(0).max(1);

export const AgentUpsertProfileInput = z.strictObject({
  agent: agentName,
  capabilities: z
    .record(capabilityName, weight)
    .refine(
      (c) => Object.keys(c).length <= MAX_CAPABILITY_DIMENSIONS,
      `at most ${MAX_CAPABILITY_DIMENSIONS} dimensions`,
    ),
});
export type AgentUpsertProfileInput = z.output<typeof AgentUpsertProfileInput>;

const DIMENSIONS_NOTE =
  `Dimensions: ${CAPABILITY_DIMENSIONS.join(', ')} (every profile has them), plus any snake_case ` +
  `name a sub-task's capability_hint uses (at most ${MAX_CAPABILITY_DIMENSIONS}). Agent names are ` +
  `matched case-insensitively and trimmed.`;

/** Weights in [0, 1] by capability dimension. */
export type CapabilityWeights = Record<string, number>;

export interface AgentProfileResult {
  agent: string;
  capabilities: CapabilityWeights;
  created_at: number;
  updated_at: number;
}

export interface AgentProfileView {
  agent: string;
  capabilities: CapabilityWeights;
  defaults: CapabilityWeights;
}

export interface ProfileBackend {
  upsert(args: AgentUpsertProfileInput): Promise<AgentProfileResult>;
  get(args: AgentGetProfileInput): Promise<AgentProfileView>;
}

/** The part of ColonyBackend these tools call (backend.ts composes the whole). */
type Host = { readonly profiles: ProfileBackend };

export const agentUpsertProfile = defineTool({
  name: 'agent_upsert_profile',
  title: 'Set agent profile',
  description: "Set an agent type's capability weights.",
  input: AgentUpsertProfileInput,
  mutates: true,
  hints: { destructive: true, idempotent: true },
  docs: {
    returns: '{ agent, capabilities, created_at, updated_at }: the saved profile, every dimension filled in.',
    notes:
      `Weights given replace the stored ones; dimensions not given keep their current value, or ` +
      `${DEFAULT_CAPABILITY_WEIGHT} for a first-time profile. The merge runs in one write transaction, ` +
      `so concurrent upserts of different dimensions both land. ${DIMENSIONS_NOTE}`,
    example: { agent: 'claude', capabilities: { ui_work: 0.8, api_work: 0.7, test_work: 0.6 } },
  },
  handler: (args, b: Host) => b.profiles.upsert(args),
});

export const AgentGetProfileInput = z.strictObject({ agent: agentName });
export type AgentGetProfileInput = z.output<typeof AgentGetProfileInput>;

export const agentGetProfile = defineTool({
  name: 'agent_get_profile',
  title: 'Agent profile',
  description: "An agent type's capability weights.",
  input: AgentGetProfileInput,
  mutates: false,
  docs: {
    returns:
      '{ agent, capabilities, defaults }: capabilities has every dimension (stored weights over the ' +
      'defaults); defaults is the default weight of each standard dimension.',
    notes: DIMENSIONS_NOTE,
    example: { agent: 'claude' },
  },
  handler: (args, b: Host) => b.profiles.get(args),
});

export const profileTools = [agentUpsertProfile, agentGetProfile];

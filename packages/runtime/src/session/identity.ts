/**
 * @module session/identity
 * Names a swarm session hands out, as pure functions: the session id (seed 003:
 * `YYYYMMDD-` + 4 hex, from the injected clock and random bytes), each agent's colony
 * session id (`swarm-<session>-<agent>`, so colony sees every agent as a session and IDE
 * agents can message it), and the environment injected into an agent's tools and hooks.
 */
import { randomBytes } from 'node:crypto';

export const SESSION_ID = /^\d{8}-[0-9a-f]{4}$/;

/** `20261125-a3f2`: the UTC date of `now` and 2 random bytes in hex. */
export function newSessionId(now: number, random: (size: number) => Uint8Array = randomBytes): string {
  const date = new Date(now).toISOString().slice(0, 10).replaceAll('-', '');
  const hex = Buffer.from(random(2)).toString('hex').slice(0, 4).padStart(4, '0');
  return `${date}-${hex}`;
}

/** The colony session an agent acts as. The operator is `swarm-<session>-operator`. */
export function colonySessionId(sessionId: string, agentName: string): string {
  return `swarm-${sessionId}-${agentName}`;
}

export interface AgentEnvironmentInput {
  readonly agent_name: string;
  readonly session_id: string;
  /** colony's store (the seed's mailbox database). */
  readonly db_path: string;
  readonly agent_names: readonly string[];
}

/**
 * Seed 003's injected variables (`SWARM_AGENT_ID`, `SWARM_SESSION_ID`, `SWARM_DB_PATH`,
 * `SWARM_AGENTS`) plus `COLONY_SESSION_ID`, so `colony` commands an agent runs act as it.
 */
export function agentEnvironment(input: AgentEnvironmentInput): Record<string, string> {
  return {
    SWARM_AGENT_ID: input.agent_name,
    SWARM_SESSION_ID: input.session_id,
    SWARM_DB_PATH: input.db_path,
    SWARM_AGENTS: input.agent_names.join(','),
    COLONY_SESSION_ID: colonySessionId(input.session_id, input.agent_name),
  };
}

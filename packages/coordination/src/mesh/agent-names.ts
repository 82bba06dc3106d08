/**
 * @module mesh/agent-names
 * Seed 001 names agents in plain string arguments (`agent_name`, `from_agent`,
 * `to_agent`, `subscribers`, `to_agents`). A name colony cannot accept answers
 * INVALID_AGENT, naming the argument: 1 to 64 characters, no control characters, no
 * leading or trailing white space. Names are case-sensitive.
 */
import { ColonyError } from '@swarm/tools';

export const MAX_AGENT_NAME_CHARS = 64;

// biome-ignore lint/suspicious/noControlCharactersInRegex: rejecting control characters is the point
const CONTROL = /[\u0000-\u001f\u007f]/;

export function isAgentName(name: string): boolean {
  return name.length > 0 && name.length <= MAX_AGENT_NAME_CHARS && !CONTROL.test(name) && name.trim() === name;
}

/** The name itself, or INVALID_AGENT naming `field`. */
export function requireAgentName(name: string, field: string): string {
  if (isAgentName(name)) return name;
  const shown = JSON.stringify(name.slice(0, MAX_AGENT_NAME_CHARS));
  throw new ColonyError(
    'INVALID_AGENT',
    `${field}: ${shown} is not a valid agent name (1-${MAX_AGENT_NAME_CHARS} characters, no control characters, no leading or trailing spaces)`,
    { details: { field } },
  );
}

/** Every name checked, duplicates dropped, first-seen order kept. */
export function requireAgentNames(names: readonly string[], field: string): string[] {
  return [...new Set(names.map((name, i) => requireAgentName(name, `${field}[${i}]`)))];
}

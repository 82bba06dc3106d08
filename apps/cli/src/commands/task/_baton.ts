/**
 * @module task/_baton
 * `task accept` and `task decline` take a handoff or a relay id alike: the handoff
 * tool is called first, and when it answers that the id is a relay, the relay tool.
 */
import type { Colony } from '@swarm/core';
import { callTool } from '../../_colony';
import { CliError } from '../../_output';

export type BatonAction = 'accept' | 'decline';

/** Calls task_<action>_handoff, or task_<action>_relay for a relay id. Returns the value and the kind. */
export async function settleBaton<T>(
  colony: Colony,
  action: BatonAction,
  id: number,
  rest: Record<string, unknown>,
): Promise<{ kind: 'handoff' | 'relay'; value: T }> {
  const outcome = await colony.handleToolCall(`task_${action}_handoff`, { handoff_observation_id: id, ...rest });
  if (outcome.ok) return { kind: 'handoff', value: outcome.value as T };
  if (outcome.error.code === 'OBSERVATION_NOT_FOUND' && outcome.error.kind === 'relay') {
    return {
      kind: 'relay',
      value: await callTool<T>(colony, `task_${action}_relay`, { relay_observation_id: id, ...rest }),
    };
  }
  throw new CliError(`${outcome.error.code}: ${outcome.error.error}`);
}

/**
 * @module batons/targeting
 * Who a baton is for. Participants join tasks under free-form agent names
 * ("claude-code", "codex", "claude-reviewer"); batons address an agent family
 * (claude | codex) or anyone. The participant's agent is authoritative: a tool's
 * optional `agent` argument may only repeat it.
 */
import type { Participant } from '@swarm/storage';
import { ColonyError } from '@swarm/tools';

/** The family of an agent name: claude for claude*, cc, cc-*; codex for codex*; else the name itself. */
export function agentFamily(agent: string): string {
  const name = agent.trim().toLowerCase();
  if (name.startsWith('claude') || /^cc(?:[-_:]|$)/.test(name)) return 'claude';
  if (name.startsWith('codex')) return 'codex';
  return name;
}

/** Whether a baton addressed to `toAgent` is for an agent of this name. */
export function targetsAgent(toAgent: string, agent: string): boolean {
  return toAgent === 'any' || agentFamily(agent) === toAgent;
}

/** The agent a participant acts as; a given `agent` of another family is refused. */
export function actingAgent(participant: Participant, agent: string | undefined): string {
  if (agent !== undefined && agentFamily(agent) !== agentFamily(participant.agent)) {
    throw new ColonyError(
      'INVALID_PARAMETERS',
      `agent "${agent}" does not match "${participant.agent}", the agent session "${participant.sessionId}" joined task ${participant.taskId} as`,
      { details: { fields: ['agent'], agent, joined_as: participant.agent } },
    );
  }
  return participant.agent;
}

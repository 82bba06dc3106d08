/**
 * @module skills/fork-hooks
 * SubagentStart and SubagentStop around a `context: fork` sub-agent (seed 003 events
 * "a subagent is spawned" / "a subagent stops"). Beside the common context (session_id,
 * cwd, hook_event_name, agent_name = the invoking agent, the matcher's source) a hook
 * reads `skill_name` and `subagent_type` (the skill's `agent`, omitted when none); on
 * SubagentStop also `outcome` (the loop's: end_turn, max_turns, aborted, error...) and
 * `reason` when it did not finish. A blocking SubagentStart hook (exit 2 or a deny/block
 * decision) refuses the fork; SubagentStop cannot undo anything, its decision is ignored.
 */
import type { LifecycleHooks } from '../lifecycle-hooks/dispatch.js';
import type { SkillDefinition } from './discover.js';

export type ForkHooks = Pick<LifecycleHooks, 'fire'>;

function fieldsOf(skill: SkillDefinition): Record<string, string> {
  const agent = skill.frontmatter.agent;
  return { skill_name: skill.name, ...(agent === null ? {} : { subagent_type: agent }) };
}

/** null when the fork may start, else the refusal the model reads. */
export async function subagentStart(
  hooks: ForkHooks | null | undefined,
  skill: SkillDefinition,
): Promise<string | null> {
  if (!hooks) return null;
  const out = await hooks.fire('SubagentStart', fieldsOf(skill));
  return out.blocked ? `blocked by SubagentStart hook: ${out.reasons.join('; ')}` : null;
}

export async function subagentStop(
  hooks: ForkHooks | null | undefined,
  skill: SkillDefinition,
  outcome: string,
  reason: string | null,
): Promise<void> {
  await hooks?.fire('SubagentStop', { ...fieldsOf(skill), outcome, ...(reason ? { reason } : {}) });
}

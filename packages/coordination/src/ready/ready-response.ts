/**
 * @module ready/ready-response
 * Turns ranked ready work into the task_ready_for_agent answer: compact entries with
 * copy-paste claim calls, the routing fields of the top pick, and the next action in
 * words. Pure: the caller decides whether to auto-claim the pick.
 */
import {
  READY_BLOCKED_ACTION,
  READY_EMPTY_STATE,
  READY_NO_PLAN_ACTION,
  type ReadyClaimRouting,
  type ReadyEntry,
  type ReadyForAgentResult,
} from '@swarm/tools';
import type { GatheredReady, ReadyQuery } from './gather-ready';
import type { RankedCandidate } from './rank-ready';

const SHOWN_CONFLICTS = 5;

export const ref = (c: Pick<RankedCandidate, 'plan_slug' | 'subtask_index'>) => `${c.plan_slug}/sub-${c.subtask_index}`;

/** The copy-paste claim of a ready sub-task. */
export function claimRouting(c: RankedCandidate, query: ReadyQuery): ReadyClaimRouting {
  const claim_args = {
    repo_root: c.repo_root,
    plan_slug: c.plan_slug,
    subtask_index: c.subtask_index,
    session_id: query.session_id,
    agent: query.agent,
    file_scope: [...c.file_scope],
  };
  const q = JSON.stringify;
  return {
    next_tool: 'task_plan_claim_subtask',
    claim_args,
    codex_mcp_call: `mcp__colony__task_plan_claim_subtask({ agent: ${q(query.agent)}, session_id: ${q(query.session_id)}, repo_root: ${q(c.repo_root)}, plan_slug: ${q(c.plan_slug)}, subtask_index: ${c.subtask_index}, file_scope: ${q(c.file_scope)} })`,
    next_action_reason:
      c.reason === 'urgent_override'
        ? `Claim ${ref(c)}: a blocking message on its thread overrides other work.`
        : `Claim ${ref(c)}: it is unclaimed, dependencies are met, and it is the highest-ranked claimable ready item.`,
  };
}

export function readyEntry(c: RankedCandidate, query: ReadyQuery): ReadyEntry {
  return {
    priority: c.priority,
    plan_slug: c.plan_slug,
    subtask_index: c.subtask_index,
    task_id: c.task_id,
    wave_index: c.wave_index,
    wave_name: c.wave_name,
    blocked_by_count: 0,
    title: c.title,
    capability_hint: c.capability_hint,
    file_scope: [...c.file_scope],
    fit_score: c.fit_score,
    reason: c.reason,
    reasoning: c.reasoning,
    assigned_agent: c.assigned_agent,
    routing_reason: c.routing_reason,
    ...(c.conflicts.length > 0 ? { conflicts: c.conflicts.slice(0, SHOWN_CONFLICTS) } : {}),
    ...(c.current ? {} : claimRouting(c, query)),
  };
}

/** The answer, and the pick an auto-claim may take (null when it must not). */
export function readyResponse(
  gathered: GatheredReady,
  query: ReadyQuery & { readonly limit: number },
): { result: ReadyForAgentResult; autoPick: RankedCandidate | null } {
  const { ranked } = gathered;
  const base = {
    ready: ranked.slice(0, query.limit).map((c) => readyEntry(c, query)),
    total_available: gathered.available,
  };
  const top = ranked[0];
  if (!top) {
    return {
      result: {
        ...base,
        next_action: gathered.planCount() === 0 ? READY_NO_PLAN_ACTION : READY_BLOCKED_ACTION,
        empty_state: READY_EMPTY_STATE,
      },
      autoPick: null,
    };
  }
  if (top.current) {
    return {
      result: {
        ...base,
        next_action: `Continue claimed sub-task ${ref(top)}; call task_plan_complete_subtask when done. Claim other ready work only when it should override it.`,
      },
      autoPick: null,
    };
  }
  const pick = { plan_slug: top.plan_slug, subtask_index: top.subtask_index, reason: top.reason };
  const routing = { assigned_agent: top.assigned_agent, routing_reason: top.routing_reason };
  if (top.assigned_agent !== query.agent) {
    return {
      result: {
        ...base,
        ...pick,
        ...routing,
        next_action: `Route ${ref(top)} to ${top.assigned_agent}: ${top.routing_reason}. Claim it yourself (its claim_args) only if no ${top.assigned_agent} takes it.`,
      },
      autoPick: null,
    };
  }
  const contested =
    top.conflicts.length > 0
      ? ` First coordinate: ${top.conflicts.map((c) => `${c.file_path} is claimed by ${c.session_id} (${c.agent})`).join('; ')}.`
      : '';
  const holdsOne = ranked.some((c) => c.current);
  return {
    result: {
      ...base,
      ...pick,
      ...routing,
      ...claimRouting(top, query),
      next_action: `Call task_plan_claim_subtask with plan_slug="${top.plan_slug}", subtask_index=${top.subtask_index}, session_id="${query.session_id}", agent="${query.agent}".${contested}`,
    },
    autoPick: contested || holdsOne ? null : top,
  };
}

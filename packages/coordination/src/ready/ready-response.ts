/**
 * @module ready/ready-response
 * Turns ranked ready work into the task_ready_for_agent answer: compact entries with
 * copy-paste claim calls, the routing fields of the top pick, and the next action in
 * words. Pure: the caller decides whether to auto-claim the pick.
 */
import {
  READY_BLOCKED_ACTION,
  READY_EMPTY_STATE,
  READY_FILE_PREVIEW,
  READY_NO_PLAN_ACTION,
  type ReadyClaimRouting,
  type ReadyEntry,
  type ReadyForAgentResult,
} from '@swarm/tools';
import { compactLine } from '../tasks/post-routing';
import type { GatheredReady, ReadyQuery } from './gather-ready';
import type { RankedCandidate } from './rank-ready';

const SHOWN_CONFLICTS = 3;
const TITLE_CHARS = 80;

export const ref = (c: Pick<RankedCandidate, 'plan_slug' | 'subtask_index'>) => `${c.plan_slug}/sub-${c.subtask_index}`;

/**
 * The copy-paste claim of a ready sub-task: the tool's own minimal exact call. file_scope
 * stays on the entry (task_plan_claim_subtask claims the sub-task's own scope either
 * way) and repo_root is named only when the slug exists in several repositories. The
 * top pick (no `rank`) carries the contract's reason sentence, an entry a few words.
 */
export function claimRouting(c: RankedCandidate, query: ReadyQuery, place: EntryPlace): ReadyClaimRouting {
  const claim_args = {
    ...(place.ambiguous ? { repo_root: c.repo_root } : {}),
    plan_slug: c.plan_slug,
    subtask_index: c.subtask_index,
    session_id: query.session_id,
    agent: query.agent,
  };
  const q = JSON.stringify;
  const root = place.ambiguous ? `, repo_root: ${q(c.repo_root)}` : '';
  return {
    next_tool: 'task_plan_claim_subtask',
    claim_args,
    codex_mcp_call: `mcp__colony__task_plan_claim_subtask({ agent: ${q(query.agent)}, session_id: ${q(query.session_id)}${root}, plan_slug: ${q(c.plan_slug)}, subtask_index: ${c.subtask_index} })`,
    next_action_reason: place.rank === undefined ? topReason(c) : entryReason(c, query, place.rank),
  };
}

/** Where an entry stands: its rank in the list (none for the top pick's routing), and whether its slug needs repo_root. */
interface EntryPlace {
  readonly rank?: number;
  readonly ambiguous: boolean;
}

function topReason(c: RankedCandidate): string {
  return c.reason === 'urgent_override'
    ? `Claim ${ref(c)}: a blocking message on its thread overrides other work.`
    : `Claim ${ref(c)}: it is unclaimed, dependencies are met, and it is the highest-ranked claimable ready item.`;
}

function entryReason(c: RankedCandidate, query: ReadyQuery, rank: number): string {
  if (c.reason === 'urgent_override') return 'A blocking message on its thread overrides other work.';
  if (c.assigned_agent !== query.agent) return `Routed to ${c.assigned_agent}; claim only if none takes it.`;
  return `#${rank}: unclaimed, deps met.`;
}

export function readyEntry(c: RankedCandidate, query: ReadyQuery, place: EntryPlace): ReadyEntry {
  const cut = c.file_scope.length > READY_FILE_PREVIEW;
  return {
    priority: c.priority,
    plan_slug: c.plan_slug,
    subtask_index: c.subtask_index,
    // The thread of work already yours (to post on); a claim answers the others' task_id.
    ...(c.current ? { task_id: c.task_id } : {}),
    wave_index: c.wave_index,
    wave_name: c.wave_name,
    blocked_by_count: 0,
    title: compactLine(c.title, TITLE_CHARS),
    capability_hint: c.capability_hint,
    file_scope: c.file_scope.slice(0, READY_FILE_PREVIEW),
    ...(cut ? { file_scope_total: c.file_scope.length } : {}),
    fit_score: c.fit_score,
    reason: c.reason,
    reasoning: c.reasoning,
    // Said only when routed away: an entry without them is yours.
    ...(c.assigned_agent !== query.agent ? { assigned_agent: c.assigned_agent, routing_reason: c.routing_reason } : {}),
    ...(c.conflicts.length > 0 ? { conflicts: c.conflicts.slice(0, SHOWN_CONFLICTS) } : {}),
    ...(c.current ? {} : claimRouting(c, query, place)),
  };
}

/** The answer, and the pick an auto-claim may take (null when it must not). */
export async function readyResponse(
  gathered: GatheredReady,
  query: ReadyQuery & { readonly limit: number },
): Promise<{ result: ReadyForAgentResult; autoPick: RankedCandidate | null; listed: number }> {
  const { ranked } = gathered;
  return { ...(await pickResponse(gathered, query)), listed: ranked.length };
}

async function pickResponse(
  gathered: GatheredReady,
  query: ReadyQuery & { readonly limit: number },
): Promise<{ result: ReadyForAgentResult; autoPick: RankedCandidate | null }> {
  const { ranked } = gathered;
  const shown = ranked.slice(0, query.limit);
  const ambiguous = await gathered.ambiguousSlugs(shown.filter((c) => !c.current).map((c) => c.plan_slug));
  const base = {
    ready: shown.map((c, i) => readyEntry(c, query, { rank: i + 1, ambiguous: ambiguous.has(c.plan_slug) })),
    total_available: gathered.available,
  };
  const top = ranked[0];
  if (!top) {
    return {
      result: {
        ...base,
        next_action: (await gathered.planCount()) === 0 ? READY_NO_PLAN_ACTION : READY_BLOCKED_ACTION,
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
      ? ` First coordinate: ${top.conflicts
          .slice(0, SHOWN_CONFLICTS)
          .map((c) => `${c.file_path} is claimed by ${c.session_id} (${c.agent})`)
          .join(
            '; ',
          )}${top.conflicts.length > SHOWN_CONFLICTS ? ` and ${top.conflicts.length - SHOWN_CONFLICTS} more` : ''}.`
      : '';
  const holdsOne = ranked.some((c) => c.current);
  return {
    result: {
      ...base,
      ...pick,
      ...routing,
      ...claimRouting(top, query, { ambiguous: ambiguous.has(top.plan_slug) }),
      next_action: `Call task_plan_claim_subtask with plan_slug="${top.plan_slug}", subtask_index=${top.subtask_index}.${contested}`,
    },
    autoPick: contested || holdsOne ? null : top,
  };
}

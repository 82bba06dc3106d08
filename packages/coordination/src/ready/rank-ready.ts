/**
 * @module ready/rank-ready
 * Ranking ready plan sub-tasks for one agent: a pure function of the candidates and
 * the signals around them, so the order is deterministic and testable without a store.
 *
 * priority = 0.5 fit + 0.2 continuity + 0.2 unblocking + 0.1 earliness - 0.5 conflict,
 * where fit is the agent's weight for the sub-task's capability_hint (0.5 without a
 * hint), continuity is 1 when the scope touches files the agent already claims (0.5
 * when the agent already works in the plan), unblocking is min(downstream, 4) / 4,
 * earliness is 1 / (1 + wave_index), and conflict is the share of the scope that other
 * sessions hold live claims on. Entries order as: urgent_override (a blocking message
 * to the agent on the sub-task's thread), then continue_current_task (sub-tasks the
 * agent already claimed), then ready_high_score, each by priority, then plan and index.
 */
import type { CapabilityWeights } from '@swarm/tools';
import { DEFAULT_CAPABILITY_WEIGHT } from '@swarm/tools';
import { agentFamily } from '../batons/targeting';
import { compareText } from '../compare-text';

export type ReadyReason = 'continue_current_task' | 'urgent_override' | 'ready_high_score';

/** A plan sub-task that may be offered: available with its dependencies met, or the agent's own claimed one. */
export interface ReadyCandidate {
  readonly plan_slug: string;
  readonly repo_root: string;
  readonly subtask_index: number;
  readonly task_id: number;
  readonly title: string;
  readonly wave_index: number;
  readonly wave_name: string;
  readonly file_scope: readonly string[];
  readonly capability_hint: string | null;
  /** The agent's own claimed sub-task (continue it) rather than an available one. */
  readonly current: boolean;
  /** Not-yet-completed sub-tasks waiting on this one, directly or through others. */
  readonly blocked_downstream_count: number;
}

/** Another session's live claim on a file of a candidate's scope. */
export interface ScopeConflict {
  readonly file_path: string;
  readonly session_id: string;
  readonly agent: string;
}

/** Another agent that is around, with its weights: sub-tasks that fit it clearly better are routed to it. */
export interface PeerProfile {
  readonly agent: string;
  readonly weights: CapabilityWeights;
}

export interface RankInput {
  readonly agent: string;
  readonly weights: CapabilityWeights;
  readonly candidates: readonly ReadyCandidate[];
  /** Repo-qualified files (see `fileKey`) the agent holds live claims on. */
  readonly ownFiles: ReadonlySet<string>;
  /** Plans the agent has claimed or completed sub-tasks in. */
  readonly ownPlans: ReadonlySet<string>;
  /** Other sessions' live claims by repo-qualified file. */
  readonly conflicts: ReadonlyMap<string, readonly ScopeConflict[]>;
  /** Task threads with an unread blocking message to the agent. */
  readonly urgentTaskIds: ReadonlySet<number>;
  readonly peers: readonly PeerProfile[];
}

export interface RankedCandidate extends ReadyCandidate {
  readonly priority: number;
  readonly fit_score: number;
  readonly reason: ReadyReason;
  readonly reasoning: string;
  readonly assigned_agent: string;
  readonly routing_reason: string;
  readonly conflicts: readonly ScopeConflict[];
}

/** A peer must beat the agent's own weight by more than this to take a sub-task from it. */
export const ROUTING_MARGIN = 0.15;
const DOWNSTREAM_CAP = 4;

/** The key of a file across repositories: repo_root and repo-relative path. */
export function fileKey(repoRoot: string, filePath: string): string {
  return `${repoRoot}\u0000${filePath}`;
}

const round = (n: number) => Math.round(n * 1000) / 1000;
const weightOf = (weights: CapabilityWeights, hint: string | null) =>
  hint === null ? DEFAULT_CAPABILITY_WEIGHT : (weights[hint] ?? DEFAULT_CAPABILITY_WEIGHT);

const REASON_ORDER: Record<ReadyReason, number> = {
  urgent_override: 0,
  continue_current_task: 1,
  ready_high_score: 2,
};

/** Ranks the candidates for one agent, best first. */
export function rankReady(input: RankInput): RankedCandidate[] {
  return input.candidates.map((c) => score(input, c)).sort(compareRanked);
}

export function compareRanked(a: RankedCandidate, b: RankedCandidate): number {
  return (
    REASON_ORDER[a.reason] - REASON_ORDER[b.reason] ||
    b.priority - a.priority ||
    compareText(a.plan_slug, b.plan_slug) ||
    a.subtask_index - b.subtask_index
  );
}

function score(input: RankInput, c: ReadyCandidate): RankedCandidate {
  const fit = weightOf(input.weights, c.capability_hint);
  const keys = c.file_scope.map((f) => fileKey(c.repo_root, f));
  const touchesOwn = keys.some((k) => input.ownFiles.has(k));
  const continuity = touchesOwn ? 1 : input.ownPlans.has(c.plan_slug) ? 0.5 : 0;
  const unblocking = Math.min(c.blocked_downstream_count, DOWNSTREAM_CAP) / DOWNSTREAM_CAP;
  const earliness = 1 / (1 + c.wave_index);
  const conflicts = c.file_scope.flatMap((f) => input.conflicts.get(fileKey(c.repo_root, f)) ?? []);
  const conflicted = new Set(conflicts.map((x) => x.file_path)).size;
  const conflict = c.file_scope.length === 0 ? 0 : conflicted / c.file_scope.length;
  const priority = round(0.5 * fit + 0.2 * continuity + 0.2 * unblocking + 0.1 * earliness - 0.5 * conflict);
  const reason: ReadyReason = input.urgentTaskIds.has(c.task_id)
    ? 'urgent_override'
    : c.current
      ? 'continue_current_task'
      : 'ready_high_score';
  const routing = route(input, c, fit);
  // Fit, hint and wave are fields of their own: the words say what they do not, or that fit alone ranks it.
  const parts = [
    ...(continuity > 0 ? [touchesOwn ? 'touches files you claim' : 'same plan as your work'] : []),
    ...(c.blocked_downstream_count > 0 ? [`unblocks ${c.blocked_downstream_count}`] : []),
    ...(conflicted > 0 ? [`${conflicted} file(s) claimed by others`] : []),
    ...(reason === 'urgent_override' ? ['blocking message on its thread'] : []),
  ];
  if (parts.length === 0) parts.push(`fit ${round(fit)} alone`);
  // Listed field by field: `{ ...c, more }` costs V8 a slow generic copy, and this runs per candidate per call.
  return {
    plan_slug: c.plan_slug,
    repo_root: c.repo_root,
    subtask_index: c.subtask_index,
    task_id: c.task_id,
    title: c.title,
    wave_index: c.wave_index,
    wave_name: c.wave_name,
    file_scope: c.file_scope,
    capability_hint: c.capability_hint,
    current: c.current,
    blocked_downstream_count: c.blocked_downstream_count,
    priority,
    fit_score: round(fit),
    reason,
    reasoning: parts.join('; '),
    assigned_agent: routing.agent,
    routing_reason: routing.reason,
    conflicts,
  };
}

/** Who should take a sub-task: the caller unless a peer of another family fits its hint clearly better. */
function route(input: RankInput, c: ReadyCandidate, fit: number): { agent: string; reason: string } {
  const own = agentFamily(input.agent);
  if (c.capability_hint === null || c.current) return { agent: input.agent, reason: 'no capability preference' };
  let best: PeerProfile | undefined;
  let bestWeight = fit + ROUTING_MARGIN;
  for (const peer of input.peers) {
    if (agentFamily(peer.agent) === own) continue;
    const w = weightOf(peer.weights, c.capability_hint);
    if (w > bestWeight || (best !== undefined && w === bestWeight && peer.agent < best.agent)) {
      best = peer;
      bestWeight = w;
    }
  }
  if (!best) return { agent: input.agent, reason: `your ${c.capability_hint} weight ${round(fit)} fits` };
  return {
    agent: best.agent,
    reason: `${best.agent} fits ${c.capability_hint} at ${round(bestWeight)} vs your ${round(fit)}`,
  };
}

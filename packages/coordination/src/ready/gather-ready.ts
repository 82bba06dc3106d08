/**
 * @module ready/gather-ready
 * Reads what ranking ready work needs from the store: the claimable sub-tasks of
 * active plans (and the caller's own claimed ones), the caller's live claims and
 * plans, others' live claims on the candidates' files, threads with a blocking message
 * for the caller, and the agents around with their profiles. Then ranks them.
 */
import {
  countActivePlans,
  liveClaimsOfSession,
  othersLiveClaimsOnFiles,
  type ReadySubtaskRow,
  readySubtaskRows,
  recentSessionAgents,
  slugsInSeveralRepos,
} from '@swarm/storage';
import { mapInOrder } from '../_in-order';
import { agentFamily } from '../batons/targeting';
import { CLAIM_FRESH_MS, claimAgeClass, isOwnership } from '../claims/age';
import type { DomainContext } from '../context';
import type { MessageService } from '../messages/message-service';
import { type ProfileService, profileKey } from '../profiles/profile-service';
import { normalizeRepoRoot } from '../tasks/task-service';
import { blockedDownstream } from './downstream';
import {
  fileKey,
  type PeerProfile,
  type RankedCandidate,
  type ReadyCandidate,
  rankReady,
  type ScopeConflict,
} from './rank-ready';

/** Agents whose sessions heartbeated within this window count as around for routing. */
const PEER_WINDOW_MS = CLAIM_FRESH_MS;

export interface ReadyQuery {
  readonly session_id: string;
  readonly agent: string;
  readonly repo_root?: string | undefined;
}

export interface GatheredReady {
  /** Active plans in scope (counted only when nothing is ranked: it picks the empty-state hint). */
  readonly planCount: () => Promise<number>;
  /** Claimable candidates (not the caller's own claimed ones). */
  readonly available: number;
  readonly ranked: RankedCandidate[];
  /** Which of these plan slugs exist in several repositories (a claim of them must name repo_root). */
  readonly ambiguousSlugs: (slugs: readonly string[]) => Promise<Set<string>>;
}

export interface ReadyDeps {
  readonly profiles: ProfileService;
  readonly messages: MessageService;
}

/** Ranks the ready work of one agent. Call inside a read or write transaction. */
export async function gatherReady(ctx: DomainContext, deps: ReadyDeps, query: ReadyQuery): Promise<GatheredReady> {
  const store = ctx.store;
  const now = ctx.clock.now();
  const repoRoot = query.repo_root === undefined ? undefined : normalizeRepoRoot(query.repo_root);
  const byPlan = new Map<number, ReadySubtaskRow[]>();
  for (const row of await readySubtaskRows(store, query.session_id, repoRoot)) {
    const siblings = byPlan.get(row.planId);
    if (siblings) siblings.push(row);
    else byPlan.set(row.planId, [row]);
  }

  const candidates: ReadyCandidate[] = [];
  const ownPlans = new Set<string>();
  for (const siblings of byPlan.values()) {
    const downstream = blockedDownstream(siblings);
    for (const s of siblings) {
      if (s.claimedBySessionId === query.session_id) ownPlans.add(s.planSlug);
      // `available` already means every dependency is completed (completion unblocks dependants).
      const current = s.status === 'claimed' && s.claimedBySessionId === query.session_id;
      if (!current && s.status !== 'available') continue;
      candidates.push({
        plan_slug: s.planSlug,
        repo_root: s.repoRoot,
        subtask_index: s.subtaskIndex,
        task_id: s.taskId,
        title: s.title,
        wave_index: s.waveIndex,
        wave_name: `Wave ${s.waveIndex + 1}`,
        file_scope: s.fileScope,
        capability_hint: s.capabilityHint,
        current,
        blocked_downstream_count: downstream.get(s.subtaskIndex) ?? 0,
      });
    }
  }

  const ownFiles = new Set(
    (await liveClaimsOfSession(store, query.session_id)).map((c) => fileKey(c.repoRoot, c.filePath)),
  );
  const ranked = rankReady({
    agent: query.agent,
    weights: await deps.profiles.weightsFor(query.agent),
    candidates,
    ownFiles,
    ownPlans,
    conflicts: await conflictsOn(ctx, candidates, query.session_id, now),
    urgentTaskIds: new Set(
      (await deps.messages.urgentUnread({ sessionId: query.session_id, agent: agentFamily(query.agent), limit: 50 }))
        .filter((m) => m.urgency === 'blocking')
        .map((m) => m.task_id),
    ),
    peers: await peersOf(ctx, deps.profiles, query.session_id, now),
  });
  return {
    planCount: async () => countActivePlans(store, repoRoot),
    ambiguousSlugs: async (slugs) => slugsInSeveralRepos(store, slugs),
    available: candidates.filter((c) => !c.current).length,
    ranked,
  };
}

/** Others' ownership claims (fresh or handoff_pending) on the candidates' files, by file key. */
async function conflictsOn(
  ctx: DomainContext,
  candidates: readonly ReadyCandidate[],
  sessionId: string,
  now: number,
): Promise<Map<string, ScopeConflict[]>> {
  const filesByRepo = new Map<string, string[]>();
  for (const c of candidates) {
    if (c.current) continue;
    filesByRepo.set(c.repo_root, [...(filesByRepo.get(c.repo_root) ?? []), ...c.file_scope]);
  }
  const conflicts = new Map<string, ScopeConflict[]>();
  for (const [repoRoot, files] of filesByRepo) {
    for (const claim of await othersLiveClaimsOnFiles(ctx.store, repoRoot, files, sessionId)) {
      if (!isOwnership(claimAgeClass(claim, now))) continue;
      const key = fileKey(repoRoot, claim.filePath);
      const entry = { file_path: claim.filePath, session_id: claim.sessionId, agent: claim.agent };
      conflicts.set(key, [...(conflicts.get(key) ?? []), entry]);
    }
  }
  return conflicts;
}

/** Agents around (heartbeat within the window), other than the caller's session, with their weights. */
async function peersOf(
  ctx: DomainContext,
  profiles: ProfileService,
  sessionId: string,
  now: number,
): Promise<PeerProfile[]> {
  const agents = new Set(
    (await recentSessionAgents(ctx.store, now - PEER_WINDOW_MS))
      .filter((s) => s.sessionId !== sessionId)
      .map((s) => profileKey(s.agent)),
  );
  return mapInOrder([...agents].sort(), async (agent) => ({ agent, weights: await profiles.weightsFor(agent) }));
}

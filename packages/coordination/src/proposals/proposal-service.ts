/**
 * @module proposals/proposal-service
 * Proposals and reinforcement (the foraging loop): an improvement proposed on
 * (repo_root, branch) gathers evidence from sessions; when its strength reaches the
 * promotion threshold it becomes a task thread on `proposal/<id>`, in the same
 * transaction as the evidence that tipped it. Pending proposals evaporate below the
 * noise floor and drop out of the foraging report.
 */
import {
  ensureTask,
  getProposal,
  insertProposal,
  insertReinforcement,
  listProposals,
  listReinforcements,
  type Proposal,
  promoteProposal,
  type Reinforcement,
  type Session,
} from '@swarm/storage';
import {
  ColonyError,
  type ForagingReport,
  PROMOTION_THRESHOLD,
  PROPOSAL_HALF_LIFE_HOURS,
  PROPOSAL_NOISE_FLOOR,
  PROPOSAL_WEIGHTS,
  type ProposalBackend,
  type ProposeResult,
  type ReinforceResult,
  type TaskForagingReportInput,
  type TaskProposeInput,
  type TaskReinforceInput,
} from '@swarm/tools';
import { withBudget } from '../budget';
import { appendObservation, type DomainContext, ensureSession } from '../context';
import { normalizeRepoPath } from '../repo-paths';
import { normalizeRepoRoot } from '../tasks/task-service';
import { agentTypeOf, proposalStrength } from './strength';

export const PROPOSAL_KIND = 'proposal';
export const PROPOSAL_REINFORCE_KIND = 'proposal-reinforce';
export const PROPOSAL_PROMOTED_KIND = 'proposal-promoted';

type EvidenceKind = keyof typeof PROPOSAL_WEIGHTS;

/** The branch of the task thread a promoted proposal opens. */
export function proposalBranch(id: number): string {
  return `proposal/${id}`;
}

export interface ProposeOptions {
  readonly repoRoot: string;
  readonly branch: string;
  readonly summary: string;
  readonly rationale: string;
  readonly touchesFiles?: readonly string[];
  readonly sessionId: string;
  /** Extra observation metadata (e.g. the spec failure that led here). */
  readonly metadata?: Record<string, unknown>;
}

export class ProposalService implements ProposalBackend {
  readonly #ctx: DomainContext;

  constructor(ctx: DomainContext) {
    this.#ctx = ctx;
  }

  propose(args: TaskProposeInput): Promise<ProposeResult> {
    return this.proposeWith({
      repoRoot: args.repo_root,
      branch: args.branch,
      summary: args.summary,
      rationale: args.rationale,
      touchesFiles: args.touches_files,
      sessionId: args.session_id,
    });
  }

  /** task_propose for other services: a pending proposal with the same summary is reinforced instead. */
  proposeWith(opts: ProposeOptions): Promise<ProposeResult> {
    const ctx = this.#ctx;
    const repoRoot = normalizeRepoRoot(opts.repoRoot);
    const files = [...new Set((opts.touchesFiles ?? []).map((f) => normalizeRepoPath(repoRoot, f)))];
    return ctx.store.write(async () => {
      const session = await ensureSession(ctx, opts.sessionId);
      const key = summaryKey(opts.summary);
      const twin = (await listProposals(ctx.store, { repoRoot, branch: opts.branch, status: 'pending' })).find(
        (p) => summaryKey(p.summary) === key,
      );
      if (twin) {
        const kind = twin.proposedBySession === session.id ? 'explicit' : 'rediscovered';
        const result = await this.#reinforce(twin, session, kind);
        return { proposal_id: twin.id, strength: result.strength, promotion_threshold: PROMOTION_THRESHOLD };
      }
      const observationId = await appendObservation(ctx, {
        sessionId: session.id,
        kind: PROPOSAL_KIND,
        content: `${opts.summary}\n\n${opts.rationale}`,
        metadata: { repo_root: repoRoot, branch: opts.branch, touches_files: files, ...opts.metadata },
      });
      const proposal = await insertProposal(
        ctx.store,
        {
          repoRoot,
          branch: opts.branch,
          summary: opts.summary,
          rationale: opts.rationale,
          touchesFiles: files,
          proposedBySession: session.id,
          observationId,
        },
        ctx.clock.now(),
      );
      const rows = [await this.#evidence(proposal, session, 'proposed', observationId)];
      const { strength } = proposalStrength(rows, ctx.clock.now());
      return { proposal_id: proposal.id, strength, promotion_threshold: PROMOTION_THRESHOLD };
    });
  }

  reinforce(args: TaskReinforceInput): Promise<ReinforceResult> {
    const ctx = this.#ctx;
    return ctx.store.write(async () => {
      const proposal = await getProposal(ctx.store, args.proposal_id);
      if (!proposal) {
        throw new ColonyError('PROPOSAL_NOT_FOUND', `proposal ${args.proposal_id} not found`, {
          details: { proposal_id: args.proposal_id },
        });
      }
      return this.#reinforce(proposal, await ensureSession(ctx, args.session_id), args.kind);
    });
  }

  foragingReport(args: TaskForagingReportInput): Promise<ForagingReport> {
    const ctx = this.#ctx;
    const repoRoot = normalizeRepoRoot(args.repo_root);
    const now = ctx.clock.now();
    return ctx.store.read(async () => {
      const pending = await listProposals(ctx.store, { repoRoot, branch: args.branch, status: 'pending' });
      const evidence = byProposal(
        await listReinforcements(
          ctx.store,
          pending.map((p) => p.id),
        ),
      );
      const alive = pending
        .map((p) => ({ p, s: proposalStrength(evidence.get(p.id) ?? [], now) }))
        .filter(({ s }) => s.strength >= PROPOSAL_NOISE_FLOOR)
        .sort((a, b) => b.s.strength - a.s.strength || b.p.id - a.p.id);
      const scored = alive.slice(0, args.limit);
      const recent = await listProposals(ctx.store, {
        repoRoot,
        branch: args.branch,
        status: 'promoted',
        promotedSince: now - PROPOSAL_HALF_LIFE_HOURS * 3_600_000,
      });
      const promoted = recent.slice(0, args.limit);
      const payload = {
        pending: scored.map(({ p, s }) => ({
          id: p.id,
          strength: s.strength,
          summary: p.summary,
          reinforcement_count: s.sessions,
          touches_files: p.touchesFiles,
          created_at: p.createdAt,
          last_reinforced_at: s.lastTs,
        })),
        promoted: promoted.map((p) => ({
          id: p.id,
          task_id: p.taskId ?? 0,
          branch: proposalBranch(p.id),
          summary: p.summary,
          promoted_at: p.promotedAt ?? 0,
        })),
      };
      return withBudget(
        payload,
        {
          available: alive.length + recent.length,
          returned: scored.length + promoted.length,
          hydrate_with: 'task_timeline',
          why_collapsed: `At most ${args.limit} pending and ${args.limit} promoted: raise limit for more.`,
        },
        ctx.tokens,
      );
    });
  }

  /** Records one piece of evidence and promotes when it tips the threshold. Inside store.write. */
  async #reinforce(proposal: Proposal, session: Session, kind: EvidenceKind): Promise<ReinforceResult> {
    const ctx = this.#ctx;
    const now = ctx.clock.now();
    const observationId = await appendObservation(ctx, {
      sessionId: session.id,
      taskId: proposal.taskId,
      kind: PROPOSAL_REINFORCE_KIND,
      content: `${kind} support for proposal #${proposal.id}: ${proposal.summary}`,
      metadata: { proposal_id: proposal.id, kind },
    });
    await this.#evidence(proposal, session, kind, observationId);
    const { strength } = proposalStrength(await listReinforcements(ctx.store, [proposal.id]), now);
    if (proposal.status === 'promoted' || strength < PROMOTION_THRESHOLD) {
      return { proposal_id: proposal.id, strength, promoted: proposal.status === 'promoted', task_id: proposal.taskId };
    }
    const { task } = await ensureTask(
      ctx.store,
      {
        repoRoot: proposal.repoRoot,
        branch: proposalBranch(proposal.id),
        title: proposal.summary,
        createdBySession: session.id,
      },
      now,
    );
    if (!(await promoteProposal(ctx.store, proposal.id, task.id, now))) {
      const current = await getProposal(ctx.store, proposal.id);
      return { proposal_id: proposal.id, strength, promoted: true, task_id: current?.taskId ?? null };
    }
    await appendObservation(ctx, {
      sessionId: session.id,
      taskId: task.id,
      kind: PROPOSAL_PROMOTED_KIND,
      content: `Promoted proposal #${proposal.id}: ${proposal.summary}\n\n${proposal.rationale}`,
      metadata: {
        proposal_id: proposal.id,
        strength,
        repo_root: proposal.repoRoot,
        branch: proposal.branch,
        touches_files: proposal.touchesFiles,
      },
    });
    return { proposal_id: proposal.id, strength, promoted: true, task_id: task.id };
  }

  async #evidence(
    proposal: Proposal,
    session: Session,
    kind: EvidenceKind,
    observationId: number,
  ): Promise<Reinforcement> {
    return insertReinforcement(this.#ctx.store, {
      proposalId: proposal.id,
      sessionId: session.id,
      agentType: agentTypeOf(session),
      kind,
      weight: PROPOSAL_WEIGHTS[kind],
      ts: this.#ctx.clock.now(),
      observationId,
    });
  }
}

function summaryKey(summary: string): string {
  return summary.trim().replace(/\s+/g, ' ').toLowerCase();
}

function byProposal(rows: readonly Reinforcement[]): Map<number, Reinforcement[]> {
  const map = new Map<number, Reinforcement[]>();
  for (const r of rows) map.set(r.proposalId, [...(map.get(r.proposalId) ?? []), r]);
  return map;
}

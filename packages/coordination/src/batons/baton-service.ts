/**
 * @module batons/baton-service
 * Handoffs, relays and quota claims: the tool-facing service. Each call runs in one
 * write transaction; a refusal thrown inside it writes nothing. The one exception is
 * expiry: a call that finds its pending baton past expires_at commits the expiry (the
 * baton expired, its claims weak_expired, an audit observation) and only then answers
 * HANDOFF_EXPIRED.
 */
import {
  type Baton,
  type BatonKind,
  expiredPendingClaims,
  getBaton,
  openBatonsForSession,
  overduePendingBatons,
  type Participant,
  retargetBaton,
  type Task,
} from '@swarm/storage';
import {
  type AcceptBatonResult,
  type BatonBackend,
  ColonyError,
  type DeclineBatonResult,
  type HandOffResult,
  type QuotaAcceptResult,
  type QuotaDeclineResult,
  type QuotaReleaseResult,
  type RelayResult,
  type TaskAcceptHandoffInput,
  type TaskAcceptRelayInput,
  type TaskClaimQuotaAcceptInput,
  type TaskClaimQuotaDeclineInput,
  type TaskClaimQuotaReleaseExpiredInput,
  type TaskDeclineHandoffInput,
  type TaskDeclineRelayInput,
  type TaskHandOffInput,
  type TaskRelayInput,
} from '@swarm/tools';
import { mapInOrder } from '../_in-order';
import { appendObservation, type DomainContext, requireParticipant, requireSession, requireTask } from '../context';
import { normalizeRepoPath } from '../repo-paths';
import {
  acceptBaton,
  assertPending,
  assertTarget,
  type BatonIdField,
  batonOnTask,
  cancelBaton,
  expireBaton,
  expiredError,
  requireBaton,
} from './_resolve';
import { openHandoff, openRelay } from './open-baton';
import { actingAgent, targetsAgent } from './targeting';

/** A baton waiting for a session, compact, with the calls that settle it. */
export interface PendingBaton {
  id: number;
  kind: BatonKind;
  task_id: number;
  from_session_id: string;
  from_agent: string;
  to_agent: string;
  to_session_id: string | null;
  summary: string;
  expires_at: number;
  accept_with: { tool: string; args: Record<string, unknown> };
  decline_with: { tool: string; args: Record<string, unknown> };
}

interface Located {
  readonly baton: Baton;
  readonly task: Task;
  readonly participant: Participant;
}

type Settled<T> = { readonly value: T } | { readonly expired: Baton };

export class BatonService implements BatonBackend {
  readonly #ctx: DomainContext;

  constructor(ctx: DomainContext) {
    this.#ctx = ctx;
  }

  handOff(args: TaskHandOffInput): Promise<HandOffResult> {
    const ctx = this.#ctx;
    return ctx.store.write(async () => {
      const task = await requireTask(ctx, args.task_id);
      const agent = actingAgent(await requireParticipant(ctx, task, args.session_id), args.agent);
      if (args.to_session_id !== undefined) await requireSession(ctx, args.to_session_id, 'to_session_id');
      const { id } = await openHandoff(ctx, task, agent, args);
      return { handoff_observation_id: id, status: 'pending' };
    });
  }

  relay(args: TaskRelayInput): Promise<RelayResult> {
    const ctx = this.#ctx;
    return ctx.store.write(async () => {
      const task = await requireTask(ctx, args.task_id);
      const agent = actingAgent(await requireParticipant(ctx, task, args.session_id), args.agent);
      const { id, warning } = await openRelay(ctx, task, agent, args);
      return { relay_observation_id: id, status: 'pending', ...(warning ? { warning } : {}) };
    });
  }

  acceptHandoff(args: TaskAcceptHandoffInput): Promise<AcceptBatonResult> {
    return this.#accept('handoff', 'handoff_observation_id', args.handoff_observation_id, args.session_id);
  }

  acceptRelay(args: TaskAcceptRelayInput): Promise<AcceptBatonResult> {
    return this.#accept('relay', 'relay_observation_id', args.relay_observation_id, args.session_id);
  }

  declineHandoff(args: TaskDeclineHandoffInput): Promise<DeclineBatonResult> {
    return this.#decline(
      'handoff',
      'handoff_observation_id',
      args.handoff_observation_id,
      args.session_id,
      args.reason,
    );
  }

  declineRelay(args: TaskDeclineRelayInput): Promise<DeclineBatonResult> {
    return this.#decline('relay', 'relay_observation_id', args.relay_observation_id, args.session_id, args.reason);
  }

  quotaAccept(args: TaskClaimQuotaAcceptInput): Promise<QuotaAcceptResult> {
    requireRef(args);
    return this.#settle(
      async () => {
        const { task, participant } = await this.#participant(args.task_id, args.session_id);
        actingAgent(participant, args.agent);
        return { baton: await batonOnTask(this.#ctx, task, args), task, participant };
      },
      async ({ baton, participant }) => {
        assertTarget(baton, participant, false);
        const files = await acceptBaton(this.#ctx, baton, participant, 'quota_accepted');
        return { status: 'accepted', handoff_observation_id: baton.id, task_id: baton.taskId, claimed_files: files };
      },
    );
  }

  quotaDecline(args: TaskClaimQuotaDeclineInput): Promise<QuotaDeclineResult> {
    requireRef(args);
    const ctx = this.#ctx;
    return this.#settle(
      async () => {
        const { task, participant } = await this.#participant(args.task_id, args.session_id);
        return { baton: await batonOnTask(ctx, task, args), task, participant };
      },
      async ({ baton, participant }) => {
        assertTarget(baton, participant, false);
        await retargetBaton(ctx.store, baton.id, 'any', null);
        await appendObservation(ctx, {
          sessionId: participant.sessionId,
          taskId: baton.taskId,
          kind: 'quota_declined',
          content: `declined the claims of ${baton.kind} #${baton.id}; re-addressed to any agent${
            args.reason ? `: ${args.reason}` : ''
          }`,
          metadata: {
            handoff_observation_id: baton.id,
            previous_to_agent: baton.toAgent,
            previous_to_session_id: baton.toSessionId,
            ...(args.reason ? { reason: args.reason } : {}),
          },
          replyTo: baton.id,
        });
        return { status: 'pending', handoff_observation_id: baton.id, to_agent: 'any' };
      },
    );
  }

  quotaReleaseExpired(args: TaskClaimQuotaReleaseExpiredInput): Promise<QuotaReleaseResult> {
    const ctx = this.#ctx;
    return ctx.store.write(async () => {
      const { task } = await this.#participant(args.task_id, args.session_id);
      const now = ctx.clock.now();
      const overdue = (b: Baton | undefined): b is Baton =>
        b !== undefined && b.status === 'pending' && now >= b.expiresAt;
      let batons: Baton[];
      if (args.handoff_observation_id !== undefined) {
        batons = [await batonOnTask(ctx, task, args)].filter(overdue);
      } else if (args.file_path !== undefined) {
        const claims = await expiredPendingClaims(
          ctx.store,
          task.id,
          now,
          normalizeRepoPath(task.repoRoot, args.file_path),
        );
        const ids = [...new Set(claims.map((c) => c.batonId).filter((id) => id !== null))];
        batons = (await mapInOrder(ids, (id) => getBaton(ctx.store, id))).filter(overdue);
      } else {
        batons = await overduePendingBatons(ctx.store, task.id, now);
      }
      const expired: number[] = [];
      const files = new Set<string>();
      for (const baton of batons) {
        const weakened = await expireBaton(ctx, baton, args.session_id);
        if (weakened === null) continue;
        expired.push(baton.id);
        for (const f of weakened) files.add(f);
      }
      return { expired_observation_ids: expired, weak_expired_files: [...files].sort() };
    });
  }

  /**
   * Pending, unexpired handoffs and relays a session could accept now: on its active
   * tasks, not its own, addressed to it, to no session in particular, or to its agent
   * family or any. Newest first. For start-of-session prefaces and inboxes.
   */
  async pendingFor(sessionId: string, limit = 20): Promise<PendingBaton[]> {
    const now = this.#ctx.clock.now();
    return (await openBatonsForSession(this.#ctx.store, sessionId, now, 200))
      .filter((b) => targetsAgent(b.toAgent, b.participantAgent))
      .slice(0, limit)
      .map((b) => {
        const field = b.kind === 'relay' ? 'relay_observation_id' : 'handoff_observation_id';
        return {
          id: b.id,
          kind: b.kind as BatonKind,
          task_id: b.taskId,
          from_session_id: b.fromSessionId,
          from_agent: b.fromAgent,
          to_agent: b.toAgent,
          to_session_id: b.toSessionId,
          summary: b.summary,
          expires_at: b.expiresAt,
          accept_with: { tool: `task_accept_${b.kind}`, args: { [field]: b.id, session_id: sessionId } },
          decline_with: { tool: `task_decline_${b.kind}`, args: { [field]: b.id, session_id: sessionId } },
        };
      });
  }

  async #participant(taskId: number, sessionId: string): Promise<{ task: Task; participant: Participant }> {
    const task = await requireTask(this.#ctx, taskId);
    return { task, participant: await requireParticipant(this.#ctx, task, sessionId) };
  }

  /** A baton of `kind` named by id, with its task and the caller as a participant of it. */
  async #locate(kind: BatonKind, field: BatonIdField, id: number, sessionId: string): Promise<Located> {
    const baton = await requireBaton(this.#ctx, id, kind, field);
    return { baton, ...(await this.#participant(baton.taskId, sessionId)) };
  }

  #accept(kind: BatonKind, field: BatonIdField, id: number, sessionId: string): Promise<AcceptBatonResult> {
    return this.#settle(
      () => this.#locate(kind, field, id, sessionId),
      async ({ baton, participant }) => {
        assertTarget(baton, participant, false);
        // The acceptor already knows the task from the baton it accepted; the claimed files are
        // in the accepted observation (issue 17: the answer is the status alone).
        await acceptBaton(this.#ctx, baton, participant, `${kind}_accepted`);
        return { status: 'accepted' };
      },
    );
  }

  #decline(
    kind: BatonKind,
    field: BatonIdField,
    id: number,
    sessionId: string,
    reason?: string,
  ): Promise<DeclineBatonResult> {
    return this.#settle(
      () => this.#locate(kind, field, id, sessionId),
      async ({ baton, participant }) => {
        assertTarget(baton, participant, true);
        await cancelBaton(this.#ctx, baton, participant, reason);
        return { status: 'cancelled' };
      },
    );
  }

  /**
   * Locates a baton and applies a change to it, in one write. A baton already resolved
   * is refused; one past its expiry is marked expired, committed, and then refused.
   */
  async #settle<T>(locate: () => Promise<Located>, apply: (located: Located) => T | Promise<T>): Promise<T> {
    const ctx = this.#ctx;
    const outcome = await ctx.store.write(async (): Promise<Settled<T>> => {
      const located = await locate();
      assertPending(located.baton);
      if (ctx.clock.now() >= located.baton.expiresAt) {
        await expireBaton(ctx, located.baton, located.participant.sessionId);
        return { expired: located.baton };
      }
      return { value: await apply(located) };
    });
    if ('expired' in outcome) throw expiredError(outcome.expired);
    return outcome.value;
  }
}

function requireRef(args: { readonly handoff_observation_id?: number; readonly file_path?: string }): void {
  if (args.handoff_observation_id === undefined && args.file_path === undefined) {
    throw new ColonyError('INVALID_PARAMETERS', 'pass handoff_observation_id or file_path to name the baton', {
      details: { fields: ['handoff_observation_id', 'file_path'] },
    });
  }
}

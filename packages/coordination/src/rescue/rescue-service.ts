/**
 * @module rescue/rescue-service
 * Rescuing stranded work. A session is stranded once its last heartbeat is older than
 * the cutoff while it still holds active file claims or a claimed plan sub-task. The
 * scan plans the rescue from a read; the run plans it again inside one write
 * transaction that runs take in turns (SQLite's BEGIN IMMEDIATE; on PostgreSQL
 * `lockWriteScope`), so racing runs rescue each (session, task) once, and applies it: a
 * relay on behalf of the stranded session, its claims released, its sub-task released,
 * and a `rescue` observation. A stranded claimed plan sub-task goes back to available
 * (with a plan-subtask-claim observation) so the ready-work picker offers it again.
 */
import {
  activeClaimsOfIdleSessions,
  listInboxMessages,
  lockWriteScope,
  type PlacedSubtask,
  releaseLiveClaims,
  releaseSubtaskClaim,
  subtasksClaimedByIdleSessions,
  subtasksOfPlans,
  subtasksOfTasks,
} from '@swarm/storage';
import {
  type BlockingUrgency,
  ColonyError,
  type MessageAttentionState,
  RELAY_TTL_MINUTES,
  RESCUE_BATCH,
  type RescueBackend,
  type RescueEntry,
  type RescueOutcome,
  type RescueStrandedRunInput,
  type RescueStrandedScanInput,
  type StrandedSession,
} from '@swarm/tools';
import { mapInOrder } from '../_in-order';
import { openRelay } from '../batons/open-baton';
import { agentFamily } from '../batons/targeting';
import { withBudget } from '../budget';
import { claimAgeClass } from '../claims/age';
import { appendObservation, type DomainContext, requireTask } from '../context';
import { PLAN_SUBTASK_CLAIM_KIND } from '../plans/subtask-lifecycle';
import { blockedDownstream } from '../ready/downstream';
import { compareEntries, type StrandedJob, strandedSessions } from './rescue-order';

const MINUTE = 60_000;
/** The branch a rescue relay names as base: the stranded session left no word of its own. */
export const RESCUE_BASE_BRANCH = 'main';
export const RESCUE_KIND = 'rescue';

/** Where a stranded task thread sits in a plan, when it is a plan sub-task. */
interface PlanPlace {
  readonly subtask: PlacedSubtask;
  readonly blocked_downstream_count: number;
}

interface RescuePlan {
  readonly stranded: StrandedSession[];
  readonly entries: Array<{ job: StrandedJob; entry: RescueEntry }>;
  readonly remaining: number;
}

export class RescueService implements RescueBackend {
  readonly #ctx: DomainContext;

  constructor(ctx: DomainContext) {
    this.#ctx = ctx;
  }

  async scan(args: RescueStrandedScanInput): Promise<RescueOutcome> {
    const plan = await this.#ctx.store.read(() => this.#plan(args.stranded_after_minutes));
    return this.#budgeted({
      dry_run: true,
      stranded: plan.stranded,
      rescued: plan.entries.map((e) => e.entry),
      remaining: plan.remaining,
    });
  }

  async run(args: RescueStrandedRunInput): Promise<RescueOutcome> {
    if (!args.confirm) {
      throw new ColonyError(
        'RESCUE_CONFIRM_REQUIRED',
        'rescue_stranded_run relays stranded work and releases its claims: call rescue_stranded_scan to review, then pass confirm: true',
        { details: { next_tool: 'rescue_stranded_scan' } },
      );
    }
    const ctx = this.#ctx;
    const outcome = await ctx.store.write(async () => {
      await lockWriteScope(ctx.store, 'rescue-run');
      const plan = await this.#plan(args.stranded_after_minutes);
      const rescued = await mapInOrder(plan.entries, ({ job, entry }) => this.#rescue(job, entry));
      return { dry_run: false, stranded: plan.stranded, rescued, remaining: plan.remaining };
    });
    return this.#budgeted(outcome);
  }

  /** The budget: rescue entries of this batch against those left for the next run. */
  #budgeted(outcome: Omit<RescueOutcome, 'budget'>): RescueOutcome {
    return withBudget(
      outcome,
      {
        available: outcome.rescued.length + outcome.remaining,
        returned: outcome.rescued.length,
        hydrate_with: 'task_timeline',
        why_collapsed: 'One batch per call: run the scan again after this batch is handled.',
      },
      this.#ctx.tokens,
    );
  }

  /** Everything stranded at the cutoff, as rescue entries in rescue order. */
  async #plan(minutes: number): Promise<RescuePlan> {
    const ctx = this.#ctx;
    const now = ctx.clock.now();
    const cutoff = now - minutes * MINUTE;
    const jobs = new Map<string, StrandedJob>();
    const jobOf = (ref: Omit<StrandedJob, 'claims'>) => {
      const key = `${ref.session_id}\u0000${ref.task_id}`;
      let job = jobs.get(key);
      if (!job) {
        job = { ...ref, claims: [] };
        jobs.set(key, job);
      }
      return job;
    };
    for (const c of await activeClaimsOfIdleSessions(ctx.store, cutoff)) {
      jobOf({
        session_id: c.sessionId,
        agent: c.agent,
        task_id: c.taskId,
        repo_root: c.repoRoot,
        branch: c.branch,
        last_heartbeat_at: c.lastHeartbeatAt,
      }).claims.push(c);
    }
    for (const s of await subtasksClaimedByIdleSessions(ctx.store, cutoff)) {
      jobOf({
        session_id: s.claimedBySessionId ?? '',
        agent: s.claimedByAgent ?? '',
        task_id: s.taskId,
        repo_root: s.repoRoot,
        branch: s.branch,
        last_heartbeat_at: s.lastHeartbeatAt,
      });
    }

    const places = await this.#places([...jobs.values()].map((j) => j.task_id));
    const entries = (
      await mapInOrder([...jobs.values()], async (job) => ({
        job,
        entry: await this.#entry(job, places.get(job.task_id), now),
      }))
    ).sort((a, b) => compareEntries(a.entry, b.entry));
    return {
      stranded: strandedSessions([...jobs.values()], now),
      entries: entries.slice(0, RESCUE_BATCH),
      remaining: Math.max(0, entries.length - RESCUE_BATCH),
    };
  }

  /** The plan place of each task thread that is a plan sub-task. */
  async #places(taskIds: readonly number[]): Promise<Map<number, PlanPlace>> {
    const store = this.#ctx.store;
    const subtasks = await subtasksOfTasks(store, taskIds);
    const siblings = await subtasksOfPlans(store, [...new Set(subtasks.map((s) => s.planId))]);
    const downstream = new Map<number, Map<number, number>>();
    for (const planId of new Set(subtasks.map((s) => s.planId))) {
      downstream.set(planId, blockedDownstream(siblings.filter((s) => s.planId === planId)));
    }
    return new Map(
      subtasks.map((subtask) => [
        subtask.taskId,
        { subtask, blocked_downstream_count: downstream.get(subtask.planId)?.get(subtask.subtaskIndex) ?? 0 },
      ]),
    );
  }

  async #entry(job: StrandedJob, place: PlanPlace | undefined, now: number): Promise<RescueEntry> {
    const released = job.claims.map((c) => c.filePath);
    const inherited = job.claims.filter((c) => claimAgeClass(c, now) === 'fresh').map((c) => c.filePath);
    const downstream = place?.blocked_downstream_count ?? 0;
    const urgency: BlockingUrgency = downstream > 0 ? 'blocks_downstream' : 'local_claim';
    const sub = place?.subtask;
    const held = sub?.status === 'claimed' && sub.claimedBySessionId === job.session_id;
    const what = `relays task ${job.task_id} to any agent and releases ${released.length} claim(s)${held ? ` and ${sub.planSlug}/sub-${sub.subtaskIndex}` : ''}`;
    return {
      session_id: job.session_id,
      agent: job.agent,
      task_id: job.task_id,
      repo_root: job.repo_root,
      branch: job.branch,
      released_claims: released,
      inherited_claims: inherited,
      stale_age_minutes: Math.floor((now - job.last_heartbeat_at) / MINUTE),
      blocking_urgency: urgency,
      message_attention_state: await this.#attention(job, now),
      suggested_action:
        urgency === 'blocks_downstream'
          ? `Blocks ${downstream} downstream sub-task(s): message the stalled owner, or rescue_stranded_run ${what}.`
          : `rescue_stranded_run ${what}.`,
      ...(sub
        ? {
            plan_slug: sub.planSlug,
            subtask_index: sub.subtaskIndex,
            wave_index: sub.waveIndex,
            blocked_downstream_count: downstream,
            ...(held ? { releases_subtask: true } : {}),
          }
        : {}),
    };
  }

  /** The most urgent unread message to the stranded session on the task. */
  async #attention(job: StrandedJob, now: number): Promise<MessageAttentionState> {
    const unread = await listInboxMessages(this.#ctx.store, {
      sessionId: job.session_id,
      agent: agentFamily(job.agent),
      now,
      unreadOnly: true,
      taskIds: [job.task_id],
      limit: 50,
    });
    const urgencies = new Set(unread.map((m) => m.urgency));
    if (urgencies.has('blocking')) return 'blocking_message';
    if (urgencies.has('needs_reply')) return 'needs_reply_message';
    return unread.length > 0 ? 'fyi_message' : 'no_pending_message';
  }

  /** Relays, releases and records one stranded (session, task). Runs inside the run's write. */
  async #rescue(job: StrandedJob, entry: RescueEntry): Promise<RescueEntry> {
    const ctx = this.#ctx;
    const task = await requireTask(ctx, job.task_id);
    const oneLine = `Rescue: ${job.agent} session ${job.session_id} went quiet ${entry.stale_age_minutes} min ago holding ${entry.released_claims.length} claim(s) on ${job.branch}`;
    const relay = await openRelay(
      ctx,
      task,
      job.agent,
      {
        task_id: task.id,
        session_id: job.session_id,
        reason: 'stranded',
        one_line: oneLine.slice(0, 500),
        base_branch: RESCUE_BASE_BRANCH,
        to_agent: 'any',
        expires_in_minutes: RELAY_TTL_MINUTES,
      },
      { heartbeat: false },
    );
    await releaseLiveClaims(ctx.store, task.id, job.session_id, entry.released_claims);
    if (entry.releases_subtask) await this.#releaseSubtask(job, entry);
    const { suggested_action: _planned, ...facts } = entry;
    const rescueId = await appendObservation(ctx, {
      sessionId: job.session_id,
      taskId: task.id,
      kind: RESCUE_KIND,
      content: `rescued stranded session ${job.session_id}: relay #${relay.id} to any agent; released ${entry.released_claims.length} claim(s)${entry.releases_subtask ? ` and ${entry.plan_slug}/sub-${entry.subtask_index}` : ''}`,
      metadata: { ...facts, relay_observation_id: relay.id },
      replyTo: relay.id,
      heartbeat: false,
    });
    return {
      ...entry,
      relay_observation_id: relay.id,
      rescue_observation_id: rescueId,
      suggested_action: `Accept with task_accept_relay (relay_observation_id ${relay.id}) after joining task ${task.id}.`,
    };
  }

  /** Puts the stranded session's claimed sub-task back to available, with its audit observation. */
  async #releaseSubtask(job: StrandedJob, entry: RescueEntry): Promise<void> {
    const ctx = this.#ctx;
    const [subtask] = await subtasksOfTasks(ctx.store, [job.task_id]);
    if (!subtask || !(await releaseSubtaskClaim(ctx.store, subtask.id, ctx.clock.now()))) return;
    await appendObservation(ctx, {
      sessionId: job.session_id,
      taskId: job.task_id,
      kind: PLAN_SUBTASK_CLAIM_KIND,
      content: `rescue released ${entry.plan_slug}/sub-${entry.subtask_index} from stranded session ${job.session_id}`,
      metadata: {
        status: 'available',
        released_by: 'rescue',
        session_id: job.session_id,
        agent: job.agent,
        parent_plan_slug: entry.plan_slug ?? null,
        subtask_index: entry.subtask_index ?? null,
      },
      heartbeat: false,
    });
  }
}

/**
 * @module attention/attention-service
 * attention_inbox: what needs a session now, read from one snapshot. Personal buckets
 * come from the services that own them (BatonService.pendingFor for handoffs and
 * relays, MessageService for the unread inbox, so they say exactly what their own
 * tools say); the shared ones from bounded reads of live state (live claims, claimed
 * sub-tasks) and of the newest edit and blocker observations. Every bucket is counted
 * in `summary`; a few entries of each are listed, and `budget` says what was left out.
 * Exported for composition: startup surfaces call `inbox()` and read the summary.
 */
import {
  type AttentionScope,
  claimedSubtasksInScope,
  existingTaskIds,
  getBaton,
  getSession,
  liveClaimsInScope,
  openBlockerPosts,
  recentEditsInScope,
  sessionThreadsInScope,
} from '@swarm/storage';
import {
  ATTENTION_DEFAULTS,
  ATTENTION_TOKEN_BUDGET,
  type AttentionBackend,
  type AttentionInbox,
  type AttentionInboxInput,
  type AttentionInboxResult,
  type AttentionSummary,
  ATTENTION_LIST_CAPS as CAPS,
  ColonyError,
  FILE_HEAT_EDIT_SCAN,
  type MessageEntry,
} from '@swarm/tools';
import { mapInOrder } from '../_in-order';
import type { BatonService, PendingBaton } from '../batons/baton-service';
import { agentFamily } from '../batons/targeting';
import { withBudget } from '../budget';
import type { DomainContext } from '../context';
import type { MessageService } from '../messages/message-service';
import { normalizeRepoRoot } from '../tasks/task-service';
import { recentOtherClaims, staleClaimSignals } from './claim-signals';
import { compactInbox } from './compact-inbox';
import { fileHeat, heatWindowMs } from './file-heat';
import { blockerEntry, byUrgency, handoffEntry, messageEntry, wakeEntry } from './inbox-entries';
import { type Candidate, listedOf, packByPriority } from './pack';
import { stalledLanes } from './stalled-lanes';

const MINUTE = 60_000;
/** Most live claims read (newest refresh first): the ownership, audit, lane and heat readings all come from these. */
export const LIVE_CLAIM_SCAN = 1000;
/** Most claimed sub-tasks read for stalled lanes. */
const SUBTASK_SCAN = 200;
/** Most pending batons and unread messages read for counting. */
const PERSONAL_SCAN = 200;
/** The newest blocker posts looked at, and the most open ones counted. */
const BLOCKER_SCAN = 200;
const BLOCKER_COUNT_CAP = 50;
/** Most of the session's threads a scoped inbox covers. */
const THREAD_SCAN = 500;

export const NEXT_ACTIONS = {
  blocking: 'Reply to blocking messages before choosing work.',
  handoff: 'Accept or decline the pending handoff before choosing work.',
  wake: 'Resume or decline the waiting relay before choosing work.',
  needsReply: 'Reply to needs_reply messages, then call task_ready_for_agent.',
  blocker: 'Resolve open blockers on your threads (task_post answer with reply_to), then call task_ready_for_agent.',
  stalled: 'Review stalled lanes before treating the repo as idle.',
  idle: 'Nothing needs you: call task_ready_for_agent.',
} as const;

/** How a composing surface (a startup card, a HUD) reads the inbox; tools use the defaults. */
export interface AttentionReadOptions {
  /** Tokens the listed entries may fill (default ATTENTION_TOKEN_BUDGET; Infinity lists up to the caps). */
  readonly tokenBudget?: number;
}

export interface AttentionServiceDeps {
  readonly messages: MessageService;
  readonly batons: BatonService;
}

export class AttentionService implements AttentionBackend {
  readonly #ctx: DomainContext;
  readonly #deps: AttentionServiceDeps;

  constructor(ctx: DomainContext, deps: AttentionServiceDeps) {
    this.#ctx = ctx;
    this.#deps = deps;
  }

  /** attention_inbox's answer: the inbox compacted (compactInbox), its budget trimmed when whole. */
  async inbox(args: AttentionInboxInput): Promise<AttentionInboxResult> {
    const { payload, facts } = await this.#ctx.store.read(() => this.#read(args, ATTENTION_TOKEN_BUDGET));
    return withBudget(compactInbox(payload), { ...facts, trimWhenWhole: true }, this.#ctx.tokens);
  }

  /** The inbox in full, every count and bucket present: for composing surfaces. */
  async read(args: AttentionInboxInput, options: AttentionReadOptions = {}): Promise<AttentionInbox> {
    const { payload, facts } = await this.#ctx.store.read(() =>
      this.#read(args, options.tokenBudget ?? ATTENTION_TOKEN_BUDGET),
    );
    return withBudget(payload, facts, this.#ctx.tokens);
  }

  async #read(input: AttentionInboxInput, tokenBudget: number) {
    const ctx = this.#ctx;
    const args = { ...input, ...tuning(input) };
    const now = ctx.clock.now();
    const scope = await this.#scope(args);
    const personal = await this.#personal(args, scope);

    const claims = await liveClaimsInScope(ctx.store, scope, LIVE_CLAIM_SCAN);
    const subtasks = await claimedSubtasksInScope(ctx.store, scope, SUBTASK_SCAN);
    const lanes = stalledLanes(claims, subtasks, args.session_id, now);
    const recent = recentOtherClaims(claims, args.session_id, now, args.recent_claim_window_minutes * MINUTE);
    const stale = staleClaimSignals(claims, now);
    const halfLife = args.file_heat_half_life_minutes * MINUTE;
    const since = now - heatWindowMs(halfLife);
    const edits = await recentEditsInScope(ctx.store, scope, since, FILE_HEAT_EDIT_SCAN);
    const heat = fileHeat(
      [
        ...edits.map((e) => ({ ...e, observationId: e.id })),
        ...claims.filter((c) => c.refreshedAt >= since).map((c) => ({ ...c, ts: c.refreshedAt })),
      ],
      now,
      halfLife,
    );

    const { messages, handoffs, wakes, blockers } = personal;
    const blocking = messages.filter((m) => m.urgency === 'blocking').length;
    const needsReply = messages.filter((m) => m.urgency === 'needs_reply').length;
    const summary: AttentionSummary = {
      unread_message_count: messages.length,
      blocking_message_count: blocking,
      needs_reply_message_count: needsReply,
      pending_handoff_count: handoffs.length,
      pending_wake_count: wakes.length,
      blocker_count: blockers.length,
      stalled_lane_count: lanes.length,
      recent_other_claim_count: recent.length,
      stale_claim_count: stale.stale_claim_count,
      hot_file_count: heat.length,
      blocked: blocking > 0 || blockers.length > 0,
      next_action: '',
    };
    summary.next_action = nextAction(summary);

    const entries = {
      pending_handoffs: handoffs.slice(0, CAPS.pending_handoffs).map(handoffEntry),
      pending_wakes: await mapInOrder(wakes.slice(0, CAPS.pending_wakes), async (b) =>
        wakeEntry(b, await this.#relayReason(b)),
      ),
      unread_messages: messages.slice(0, CAPS.unread_messages).map((m) => messageEntry(m, args.session_id)),
      blockers: blockers.slice(0, CAPS.blockers).map((b) => blockerEntry(b, args.session_id)),
      stalled_lanes: lanes.slice(0, CAPS.stalled_lanes),
      recent_other_claims: recent.slice(0, args.recent_claim_limit),
      file_heat: heat.slice(0, args.file_heat_limit),
    };
    const available =
      messages.length + handoffs.length + wakes.length + blockers.length + lanes.length + recent.length + heat.length;
    const base = {
      summary,
      ...Object.fromEntries(Object.keys(entries).map((k) => [k, []])),
      stale_claim_signals: stale,
      budget: { ...DRAFT_BUDGET, items_available: available },
    };
    const listed = packByPriority(base, candidates(entries), tokenBudget, ctx.tokens);
    const pick = <K extends Bucket>(bucket: K) => listedOf(bucket, entries[bucket] as object[], listed) as Entries[K];
    const payload = {
      summary,
      pending_handoffs: pick('pending_handoffs'),
      pending_wakes: pick('pending_wakes'),
      unread_messages: pick('unread_messages'),
      blockers: pick('blockers'),
      stalled_lanes: pick('stalled_lanes'),
      recent_other_claims: pick('recent_other_claims'),
      stale_claim_signals: stale,
      file_heat: pick('file_heat'),
    };
    const facts = { available, returned: listed.size, hydrate_with: 'get_observations', why_collapsed: WHY_COLLAPSED };
    return { payload, facts };
  }

  /** Repositories (repo_root and repo_roots together) and task ids; unknown task ids are refused. */
  async #scope(args: AttentionInboxInput): Promise<AttentionScope> {
    const roots = [...(args.repo_root === undefined ? [] : [args.repo_root]), ...(args.repo_roots ?? [])];
    const taskIds = args.task_ids === undefined ? null : [...new Set(args.task_ids)];
    if (taskIds) {
      const known = new Set(await existingTaskIds(this.#ctx.store, taskIds));
      const missing = taskIds.filter((id) => !known.has(id));
      if (missing.length > 0) {
        throw new ColonyError('TASK_NOT_FOUND', `task ${missing.join(', ')} not found`, {
          details: { task_ids: missing },
        });
      }
    }
    return { repoRoots: roots.length === 0 ? null : [...new Set(roots.map(normalizeRepoRoot))], taskIds };
  }

  /** What is addressed to the session on its threads in scope; nothing for a session not registered yet. */
  async #personal(args: AttentionInboxInput, scope: AttentionScope) {
    const ctx = this.#ctx;
    const none = { messages: [] as MessageEntry[], handoffs: [] as PendingBaton[], wakes: [] as PendingBaton[] };
    if (!(await getSession(ctx.store, args.session_id))) return { ...none, blockers: [] };
    const threads = await sessionThreadsInScope(ctx.store, args.session_id, scope, THREAD_SCAN);
    const scoped = scope.repoRoots !== null || scope.taskIds !== null;
    const inScope = new Set(threads);
    const batons = (await this.#deps.batons.pendingFor(args.session_id, PERSONAL_SCAN)).filter(
      (b) => !scoped || inScope.has(b.task_id),
    );
    const messages =
      scoped && threads.length === 0
        ? []
        : await this.#deps.messages.list({
            session_id: args.session_id,
            agent: agentFamily(args.agent),
            unread_only: true,
            limit: PERSONAL_SCAN,
            ...(scoped ? { task_ids: threads } : {}),
          });
    return {
      messages: byUrgency(messages),
      handoffs: batons.filter((b) => b.kind === 'handoff'),
      wakes: batons.filter((b) => b.kind === 'relay'),
      blockers: await openBlockerPosts(ctx.store, threads, BLOCKER_SCAN, BLOCKER_COUNT_CAP),
    };
  }

  async #relayReason(baton: PendingBaton): Promise<string> {
    const reason = (await getBaton(this.#ctx.store, baton.id))?.payload.reason;
    return typeof reason === 'string' ? reason : 'relay';
  }
}

type Entries = Pick<
  AttentionInbox,
  | 'pending_handoffs'
  | 'pending_wakes'
  | 'unread_messages'
  | 'blockers'
  | 'stalled_lanes'
  | 'recent_other_claims'
  | 'file_heat'
>;
type Bucket = keyof Entries;

const WHY_COLLAPSED = `Listed by priority within ~${ATTENTION_TOKEN_BUDGET} tokens; summary counts all; task_messages lists every message.`;
/** A budget object as large as the real one, for sizing the rest of the answer. */
const DRAFT_BUDGET = {
  items_available: 0,
  items_returned: 0,
  collapsed_count: 0,
  estimated_tokens_returned: 1000,
  hydrate_with: 'get_observations',
  why_collapsed: WHY_COLLAPSED,
};

/** Every listed-entry candidate, most urgent first. */
function candidates(e: Entries): Candidate<Bucket>[] {
  const of = <K extends Bucket>(bucket: K, list: readonly object[]) => list.map((entry) => ({ bucket, entry }));
  const messages = (urgency: string | null) =>
    e.unread_messages.filter((m) =>
      urgency === null ? m.urgency !== 'blocking' && m.urgency !== 'needs_reply' : m.urgency === urgency,
    );
  return [
    ...of('unread_messages', messages('blocking')),
    ...of('pending_handoffs', e.pending_handoffs),
    ...of('pending_wakes', e.pending_wakes),
    ...of('unread_messages', messages('needs_reply')),
    ...of('blockers', e.blockers),
    ...of('stalled_lanes', e.stalled_lanes),
    ...of('unread_messages', messages(null)),
    ...of('recent_other_claims', e.recent_other_claims),
    ...of('file_heat', e.file_heat),
  ];
}

/** The tuning inputs with their defaults filled in. */
function tuning(input: AttentionInboxInput): Record<keyof typeof ATTENTION_DEFAULTS, number> {
  const d = ATTENTION_DEFAULTS;
  return {
    recent_claim_window_minutes: input.recent_claim_window_minutes ?? d.recent_claim_window_minutes,
    recent_claim_limit: input.recent_claim_limit ?? d.recent_claim_limit,
    file_heat_half_life_minutes: input.file_heat_half_life_minutes ?? d.file_heat_half_life_minutes,
    file_heat_limit: input.file_heat_limit ?? d.file_heat_limit,
  };
}

/** The first thing to do, most urgent first. */
export function nextAction(s: AttentionSummary): string {
  if (s.blocking_message_count > 0) return NEXT_ACTIONS.blocking;
  if (s.pending_handoff_count > 0) return NEXT_ACTIONS.handoff;
  if (s.pending_wake_count > 0) return NEXT_ACTIONS.wake;
  if (s.needs_reply_message_count > 0) return NEXT_ACTIONS.needsReply;
  if (s.blocker_count > 0) return NEXT_ACTIONS.blocker;
  if (s.stalled_lane_count > 0) return NEXT_ACTIONS.stalled;
  return NEXT_ACTIONS.idle;
}

/**
 * @module lanes/startup-service
 * startup_panel and bridge_status: one read snapshot of the lanes in scope, the
 * caller's own lanes, its attention_inbox and its ready work (ranked without claiming),
 * composed into a resume card or a HUD status. Nothing here writes; every list is a
 * capped preview and bodies stay behind get_observations.
 */
import { latestWorkingNote, liveClaimsOfTask, subtasksOfTasks } from '@swarm/storage';
import {
  type AttentionInbox,
  BRIDGE_PREVIEW_CAPS,
  BRIDGE_STATUS_SCHEMA,
  type BridgeStatusInput,
  type BridgeStatusResult,
  LANE_SOURCE,
  type ReadyForAgentResult,
  type StartupBackend,
  type StartupEvidence,
  type StartupPanelInput,
  type StartupPanelResult,
} from '@swarm/tools';
import type { AttentionService } from '../attention/attention-service';
import type { DomainContext } from '../context';
import type { ReadyService } from '../ready/ready-service';
import { attentionIds, blockerOf, blockingItems } from './inbox-view';
import { countActivities, type Lane, lockedFilePreview } from './lane';
import type { LaneService } from './lane-service';
import { mcpCall, type NextStep, nextStep } from './next-step';

/** The caller's newest observations searched for its latest working note. */
const WORKING_NOTE_SCAN = 200;
const CAPS = BRIDGE_PREVIEW_CAPS;

export interface StartupServiceDeps {
  readonly lanes: LaneService;
  readonly attention: AttentionService;
  readonly ready: ReadyService;
}

interface Caller {
  readonly session_id: string;
  readonly agent: string;
  readonly repo_root?: string | undefined;
  readonly branch?: string | undefined;
  readonly query?: string | undefined;
}

/** Everything both surfaces are composed from, read in one snapshot. */
interface Snapshot {
  readonly repoRoot: string;
  readonly lanes: Lane[];
  readonly own: Lane[];
  readonly active: Lane | null;
  readonly inbox: AttentionInbox;
  readonly ready: ReadyForAgentResult;
  readonly note: { id: number; ts: number; text: string } | undefined;
  readonly next: NextStep;
  readonly evidence: StartupEvidence;
}

export class StartupService implements StartupBackend {
  readonly #ctx: DomainContext;
  readonly #deps: StartupServiceDeps;

  constructor(ctx: DomainContext, deps: StartupServiceDeps) {
    this.#ctx = ctx;
    this.#deps = deps;
  }

  panel(args: StartupPanelInput): Promise<StartupPanelResult> {
    const ctx = this.#ctx;
    return ctx.store.read(async () => {
      const snap = await this.#snapshot(args, args.ready_limit);
      const { active, inbox, ready, next } = snap;
      const top = ready.ready.find((e) => e.next_tool) ?? ready.ready[0];
      const subtask = active ? (await subtasksOfTasks(ctx.store, [active.taskId]))[0] : undefined;
      const s = inbox.summary;
      return {
        session_id: args.session_id,
        agent: args.agent,
        repo_root: snap.repoRoot,
        branch: active?.branch ?? args.branch ?? null,
        active_task: active
          ? { task_id: active.taskId, branch: active.branch, title: active.task, activity: active.activity }
          : null,
        ready_task: top
          ? {
              plan_slug: top.plan_slug,
              subtask_index: top.subtask_index,
              title: top.title,
              reason: top.reason,
              fit_score: top.fit_score,
              file_scope_preview: top.file_scope.slice(0, 3),
            }
          : null,
        active_queen_plan: subtask
          ? { plan_slug: subtask.planSlug, subtask_index: subtask.subtaskIndex, wave_index: subtask.waveIndex }
          : null,
        inbox_count: s.unread_message_count + s.pending_handoff_count + s.pending_wake_count + s.blocker_count,
        blocking_items: blockingItems(inbox),
        claimed_files: active ? active.claims.slice(0, 10).map((c) => c.filePath) : [],
        blocker: blockerOf(inbox),
        next: next.action,
        evidence: snap.evidence,
        warnings: warnings(snap),
        recommended_next_tool: next.tool,
        recommended_next_args: next.args,
        copy_paste_next_mcp_calls: next.tool && next.args ? [mcpCall(next.tool, next.args)] : [],
      };
    });
  }

  bridgeStatus(args: BridgeStatusInput): Promise<BridgeStatusResult> {
    const ctx = this.#ctx;
    return ctx.store.read(async () => {
      const snap = await this.#snapshot(args, CAPS.ready_work);
      const { lanes, active, inbox, ready, note, next } = snap;
      const s = inbox.summary;
      const needsAttention = lanes.filter((l) => l.needsAttention).length;
      const claims = active
        ? (await liveClaimsOfTask(ctx.store, active.taskId, CAPS.claimed_files_full)).map((c) => ({
            task_id: c.taskId,
            file_path: c.filePath,
            by_session_id: c.sessionId,
            claimed_at: c.claimedAt,
            yours: c.sessionId === args.session_id,
          }))
        : [];
      const shown = lanes.slice(0, CAPS.lanes);
      return {
        schema: BRIDGE_STATUS_SCHEMA,
        generated_at: new Date(ctx.clock.now()).toISOString(),
        runtime_source: LANE_SOURCE,
        hivemind: {
          lane_count: shown.length,
          total_lane_count: lanes.length,
          lanes_truncated: lanes.length > shown.length,
          needs_attention_count: needsAttention,
          counts: countActivities(lanes),
          lane_preview: shown.map((l) => ({
            branch: l.branch,
            task: l.task,
            owner: l.owner,
            activity: l.activity,
            needs_attention: l.needsAttention,
            risk: l.needsAttention ? (l.activity === 'dead' ? 'dead' : 'stalled') : 'none',
            source: LANE_SOURCE,
            locked_file_count: l.claims.length,
            locked_file_preview: lockedFilePreview(l),
          })),
        },
        branch: active?.branch ?? args.branch ?? null,
        task: active?.task ?? null,
        blocker: blockerOf(inbox),
        next_action: next.action,
        next: next.action,
        evidence: snap.evidence,
        attention: {
          unread_count: s.unread_message_count,
          blocking_count: s.blocking_message_count,
          blocking: s.blocked,
          pending_handoff_count: s.pending_handoff_count,
          pending_wake_count: s.pending_wake_count,
          stalled_lane_count: s.stalled_lane_count,
        },
        attention_counts: {
          lane_needs_attention_count: needsAttention,
          pending_handoff_count: s.pending_handoff_count,
          pending_wake_count: s.pending_wake_count,
          unread_message_count: s.unread_message_count,
          stalled_lane_count: s.stalled_lane_count,
          recent_other_claim_count: s.recent_other_claim_count,
          blocked: s.blocked,
        },
        ready_work_count: ready.total_available,
        ready_work_preview: ready.ready.slice(0, CAPS.ready_work).map((e) => ({
          title: e.title,
          plan_slug: e.plan_slug,
          subtask_index: e.subtask_index,
          reason: e.reason,
          fit_score: e.fit_score,
          capability_hint: e.capability_hint,
          file_count: e.file_scope.length,
          file_scope_preview: e.file_scope.slice(0, 3),
        })),
        claimed_file_count: claims.length,
        claimed_file_preview: claims.slice(0, CAPS.claimed_files),
        claimed_files: claims,
        latest_working_note:
          note && active
            ? { id: note.id, task_id: active.taskId, session_id: args.session_id, ts: note.ts, content: note.text }
            : null,
      };
    });
  }

  /** Call inside a read transaction. */
  async #snapshot(args: Caller, readyLimit: number): Promise<Snapshot> {
    const { lanes: laneService, attention, ready: readyService } = this.#deps;
    const repoRoots = laneService.scope({ repo_root: args.repo_root });
    const repoRoot = repoRoots[0] ?? '';
    const lanes = await laneService.lanes({ repoRoots });
    const own = await laneService.sessionLanes(args.session_id, repoRoots);
    const active = pickActive(own, args.branch, args.query);
    const inbox = await attention.read({
      session_id: args.session_id,
      agent: args.agent,
      repo_roots: repoRoots,
      recent_claim_window_minutes: 30,
      recent_claim_limit: 5,
      file_heat_half_life_minutes: 30,
      file_heat_limit: 1,
    });
    const ready = await readyService.readyForAgent({
      session_id: args.session_id,
      agent: args.agent,
      repo_root: repoRoot,
      limit: readyLimit,
      auto_claim: false,
    });
    const note = active
      ? await latestWorkingNote(this.#ctx.store, args.session_id, active.taskId, WORKING_NOTE_SCAN)
      : undefined;
    const ids = attentionIds(inbox);
    const s = inbox.summary;
    const waiting =
      s.unread_message_count + s.pending_handoff_count + s.pending_wake_count + s.blocker_count + s.stalled_lane_count;
    return {
      repoRoot,
      lanes,
      own,
      active,
      inbox,
      ready,
      note,
      next: nextStep({ sessionId: args.session_id, inbox, ready, active }),
      evidence: {
        task_id: active?.taskId ?? null,
        latest_working_note_id: note?.id ?? null,
        attention_observation_ids: ids.slice(0, CAPS.ids),
        attention_observation_ids_truncated: waiting > Math.min(ids.length, CAPS.ids),
        hydrate_with: 'get_observations',
      },
    };
  }
}

/** The caller's lane on `branch`, else one whose task text has `query`, else the one with the latest file work. */
function pickActive(own: readonly Lane[], branch?: string, query?: string): Lane | null {
  if (branch !== undefined) return own.find((l) => l.branch === branch) ?? null;
  const needle = query?.trim().toLowerCase();
  const matching = needle ? own.filter((l) => `${l.branch} ${l.title ?? ''}`.toLowerCase().includes(needle)) : [];
  const pool = matching.length > 0 ? matching : own;
  return pool.reduce<Lane | null>(
    (best, l) => (!best || (l.lastWorkAt ?? 0) > (best.lastWorkAt ?? 0) ? l : best),
    null,
  );
}

function warnings(snap: Snapshot): string[] {
  const out: string[] = [];
  const stalled = snap.inbox.summary.stalled_lane_count;
  if (stalled > 0) out.push(`${stalled} stalled lane(s) still hold claims here: see attention_inbox.stalled_lanes.`);
  if (!snap.active && snap.own.length > 1) {
    out.push(`You have ${snap.own.length} open lanes here: pass branch to pick the active one.`);
  }
  if (snap.active && !['working', 'thinking'].includes(snap.active.activity)) {
    out.push(`Your lane on ${snap.active.branch} was ${snap.active.activity}: post task_note_working to resume it.`);
  }
  return out;
}

/**
 * @module ready/ready-service
 * task_ready_for_agent and task_autopilot_tick. Ranking reads one snapshot. When
 * auto_claim finds a pick, the ranking runs again and the pick is claimed in one write
 * transaction that auto-claims take in turns (SQLite's BEGIN IMMEDIATE; on PostgreSQL,
 * where writers run side by side, `lockWriteScope`), so the pick cannot change between
 * choosing and claiming and a racer ranks after the winner committed; calls with
 * nothing to claim never take the write lock. The claim itself is
 * task_plan_claim_subtask's (same rules, same observation).
 */
import { lockWriteScope } from '@swarm/storage';
import {
  type AutoClaimOutcome,
  type AutopilotTickResult,
  isColonyError,
  type ReadyBackend,
  type ReadyForAgentAnswer,
  type ReadyForAgentResult,
  type TaskAutopilotTickInput,
  type TaskReadyForAgentInput,
} from '@swarm/tools';
import type { BatonService } from '../batons/baton-service';
import { withBudget } from '../budget';
import type { DomainContext } from '../context';
import type { PlanService } from '../plans/plan-service';
import { decideTick, gatherSignals } from './autopilot';
import { gatherReady, type ReadyDeps } from './gather-ready';
import type { RankedCandidate } from './rank-ready';
import { readyResponse, ref } from './ready-response';

export interface ReadyServiceDeps extends ReadyDeps {
  readonly plans: PlanService;
  readonly batons: BatonService;
}

export class ReadyService implements ReadyBackend {
  readonly #ctx: DomainContext;
  readonly #deps: ReadyServiceDeps;

  constructor(ctx: DomainContext, deps: ReadyServiceDeps) {
    this.#ctx = ctx;
    this.#deps = deps;
  }

  async readyForAgent(args: TaskReadyForAgentInput): Promise<ReadyForAgentAnswer> {
    const store = this.#ctx.store;
    const answer = async () => readyResponse(await gatherReady(this.#ctx, this.#deps, args), args);
    const read = await store.read(answer);
    if (!args.auto_claim || !read.autoPick) return this.#budgeted(read.result, read.listed);
    // Something to claim: rank again under the write lock, so the pick claimed is the pick of the moment.
    const { result, listed } = await store.write(async () => {
      await lockWriteScope(store, 'ready-auto-claim');
      const again = await answer();
      return {
        ...again,
        result: again.autoPick ? await this.#autoClaim(again.result, again.autoPick, args) : again.result,
      };
    });
    return this.#budgeted(result, listed);
  }

  /** The budget: the ranked candidates (claimable and your own) against the entries shown. */
  #budgeted(result: ReadyForAgentResult, listed: number): ReadyForAgentAnswer {
    return withBudget(
      result,
      {
        available: listed,
        returned: result.ready.length,
        hydrate_with: 'task_plan_list',
        why_collapsed: 'Raise limit for more.',
        trimWhenWhole: true,
      },
      this.#ctx.tokens,
    );
  }

  autopilotTick(args: TaskAutopilotTickInput): Promise<AutopilotTickResult> {
    const ctx = this.#ctx;
    return ctx.store.read(async () => {
      const gathered = await gatherReady(ctx, this.#deps, args);
      const { result } = await readyResponse(gathered, { ...args, limit: 5 });
      const signals = await gatherSignals(ctx, this.#deps, args, result.total_available);
      const tick = decideTick(ctx.clock.now(), args, signals, result, gathered.ranked.find((c) => c.current) ?? null);
      // The signals that could each have been the decision; one is.
      const { counts } = signals;
      const actionable =
        counts.pending_handoff_count +
        counts.quota_pending_claim_count +
        counts.blocking_message_count +
        counts.ready_subtask_count;
      return withBudget(
        tick,
        {
          available: Math.max(actionable, tick.next_tool === null ? 0 : 1),
          returned: tick.next_tool === null ? 0 : 1,
          hydrate_with: 'attention_inbox',
          why_collapsed: 'One decision: attention_inbox and task_ready_for_agent list the rest.',
        },
        ctx.tokens,
      );
    });
  }

  /** Claims the pick through task_plan_claim_subtask's path; a refusal is reported, not thrown. */
  async #autoClaim(
    result: ReadyForAgentResult,
    pick: RankedCandidate,
    args: TaskReadyForAgentInput,
  ): Promise<ReadyForAgentResult> {
    const at = { plan_slug: pick.plan_slug, subtask_index: pick.subtask_index };
    let outcome: AutoClaimOutcome;
    try {
      const claimed = await this.#deps.plans.claimSubtask({
        ...at,
        session_id: args.session_id,
        agent: args.agent,
        repo_root: pick.repo_root,
      });
      outcome = { ok: true, ...at, task_id: claimed.task_id, branch: claimed.branch, file_scope: claimed.file_scope };
    } catch (error) {
      if (!isColonyError(error)) throw error;
      outcome = { ok: false, ...at, code: error.code, error: error.message };
      return {
        ...result,
        auto_claimed: outcome,
        next_action: `Auto-claim of ${ref(pick)} failed (${error.code}): call task_ready_for_agent again.`,
      };
    }
    const { next_tool: _t, claim_args: _a, codex_mcp_call: _c, next_action_reason: _r, ...rest } = result;
    return {
      ...rest,
      // The claimed sub-task is now the one to continue: no claim call left on it.
      ready: rest.ready.map((e) =>
        e.plan_slug === pick.plan_slug && e.subtask_index === pick.subtask_index
          ? {
              ...without(e, ['next_tool', 'claim_args', 'codex_mcp_call', 'next_action_reason']),
              reason: 'continue_current_task',
            }
          : e,
      ),
      total_available: rest.total_available - 1,
      auto_claimed: outcome,
      next_action: `Auto-claimed ${ref(pick)}: claim files before edits with task_claim_file, then post task_note_working.`,
    };
  }
}

function without<T extends object, K extends keyof T>(value: T, keys: readonly K[]): Omit<T, K> {
  const copy = { ...value };
  for (const k of keys) delete copy[k];
  return copy;
}

/**
 * @module runner/runner
 * One agent's life (seed 003 `run_agent()`): drives the pure state machine, performs
 * its side effects and runs a fresh provider session per iteration (no resume, ADR-004).
 * BuildingPrompt consumes the agent's messages and assembles the 14 sections anew;
 * Running is one `runAgentLoop`; an urgent message (`interrupt()`) aborts the in-flight
 * request at once, waits up to `grace_ms` for the session to end (then abandons it:
 * ForceStopSession) and the next prompt carries the message and the Interrupt Context;
 * a failed session cools down `backoffMs(n)` on the injected sleep; a budget or the
 * error limits stop the agent with a reason. After a session in which the model did
 * nothing (no tool calls), the agent idles until a message arrives or, per its
 * liveness settings, an idle nudge is due.
 */
import type { ModelProvider } from '@swarm/providers';
import type { LifecycleHooks } from '../lifecycle-hooks/dispatch.js';
import { type LoopResult, loopExitOutcome, runAgentLoop } from '../loop/agent-loop.js';
import type { Mailbox } from '../mailbox/mailbox.js';
import { OPERATOR } from '../mailbox/mailbox.js';
import { buildPrompt } from '../prompt/build-prompt.js';
import type { EnvironmentInfo, PromptMessage, ReadySubtask } from '../prompt/prompt-context.js';
import type { ResolvedLiveness } from '../settings/resolved.js';
import type { ExecutionMode } from '../settings/schema.js';
import { type AgentEvent, type AgentMachine, type AgentStateKind, initialMachine } from '../state/agent-state.js';
import { transition } from '../state/transition.js';
import type { AgentTools } from '../tools/agent-tools.js';
import { realSleep, type Sleep, Waker } from './_waker.js';
import { type BudgetMeter, TurnUsage } from './budget.js';
import { Heartbeat } from './heartbeat.js';

export const DEFAULT_GRACE_MS = 10_000;
export const NUDGE_TEXT = 'You have been idle. Check the plan for ready sub-tasks and your messages, then carry on.';

export interface RunnerOptions {
  readonly name: string;
  readonly agent_prompt: string;
  readonly mode: ExecutionMode | null;
  readonly model: string;
  readonly provider: ModelProvider;
  readonly tools: AgentTools;
  readonly mailbox: Mailbox;
  readonly worktree: string;
  readonly session_id: string;
  readonly colony_session_id: string;
  readonly db_path: string;
  readonly agent_names: readonly string[];
  readonly now: () => number;
  /** Backoffs and idle spells; default real timers. */
  readonly sleep?: Sleep;
  readonly environment: () => Promise<EnvironmentInfo>;
  readonly ready_subtasks?: () => Promise<readonly ReadySubtask[] | null>;
  readonly project_instructions?: string | null;
  readonly max_consecutive_errors?: number;
  readonly max_total_errors?: number;
  readonly grace_ms?: number;
  readonly session_timeout_ms?: number | null;
  readonly liveness?: ResolvedLiveness;
  /** This agent's meter, and the session's (shared by every agent). */
  readonly budgets?: readonly BudgetMeter[];
  readonly max_tokens_per_turn?: number;
  /** Called after each session with its result (logs, relays on quota). */
  readonly onSession?: (result: LoopResult, seq: number) => void | Promise<void>;
  readonly onChange?: (snapshot: AgentSnapshot) => void;
  readonly log?: (line: string) => void;
  /** Refreshes the agent's colony session heartbeat (its lane); beaten at each session start and every `heartbeat_interval_ms` while one runs. */
  readonly heartbeat?: () => Promise<void>;
  readonly heartbeat_interval_ms?: number;
  /** Lifecycle hooks: SessionStart/SessionEnd around each provider session, Stop on OperatorStop. */
  readonly hooks?: LifecycleHooks | null;
}

export interface AgentSnapshot {
  readonly name: string;
  readonly state: AgentStateKind;
  readonly session_seq: number;
  readonly consecutive_errors: number;
  readonly total_errors: number;
  /** Epoch ms of the last model or tool event. */
  readonly last_activity: number;
  /** What the last activity was: `SessionStart`, `PostToolUse` (a tool result) or `ModelResponse`. */
  readonly last_activity_event: string;
  readonly stop_reason: string | null;
  readonly tokens: number;
  readonly cost_usd: number;
}

export class AgentRunner {
  private machine: AgentMachine = initialMachine();
  private seq = 0;
  private controller: AbortController | null = null;
  private interruptReason: string | null = null;
  private graceTimer: ReturnType<typeof setTimeout> | null = null;
  private graceResolve: (() => void) | null = null;
  private readonly waker = new Waker();
  private lastActivity: number;
  private lastActivityEvent = 'SessionStart';
  private stopReason: string | null = null;
  private tokens = 0;
  private usd = 0;
  private nudges = 0;
  private pendingNudge = false;
  private done: Promise<void> | null = null;
  private readonly beat: Heartbeat | null;

  constructor(readonly options: RunnerOptions) {
    this.lastActivity = options.now();
    this.beat = options.heartbeat ? new Heartbeat(options.heartbeat, options.now, options.heartbeat_interval_ms) : null;
  }

  get name(): string {
    return this.options.name;
  }

  snapshot(): AgentSnapshot {
    const state = this.machine.state;
    return {
      name: this.name,
      state: state.kind,
      session_seq: this.seq,
      consecutive_errors: this.machine.consecutive_errors,
      total_errors: this.machine.total_errors,
      last_activity: this.lastActivity,
      last_activity_event: this.lastActivityEvent,
      stop_reason: this.stopReason,
      tokens: this.tokens,
      cost_usd: this.usd,
    };
  }

  /** Starts the agent (its worktree is ready); resolves when it is Stopped. */
  start(): Promise<void> {
    this.done ??= this.run();
    return this.done;
  }

  /** An urgent message: a Running agent is interrupted; any other is woken to read it. */
  interrupt(reason = 'urgent message'): boolean {
    // A request under way whose answer has not begun is a session too: interrupt it.
    if (this.machine.state.kind === 'Spawning' && this.controller) this.started();
    if (this.machine.state.kind !== 'Running') {
      this.waker.wake();
      return false;
    }
    this.interruptReason = reason;
    this.fire({ type: 'UrgentMessage' });
    this.graceTimer = setTimeout(() => this.graceResolve?.(), this.options.grace_ms ?? DEFAULT_GRACE_MS);
    return true;
  }

  /** A new (normal) message: an idle agent starts its next session. */
  wake(): void {
    this.waker.wake();
  }

  /** OperatorStop; resolves once the agent is Stopped. */
  async stop(reason = 'operator stop'): Promise<void> {
    if (this.machine.state.kind !== 'Stopped') {
      await this.options.hooks?.fire('Stop', { reason }).catch(() => undefined);
      this.stopReason ??= reason;
      this.fire({ type: 'OperatorStop' });
    }
    this.waker.wake();
    this.graceResolve?.();
    await this.done;
  }

  private fire(event: AgentEvent): void {
    const result = transition(this.machine, event, {
      now: this.options.now,
      ...(this.options.max_consecutive_errors !== undefined
        ? { max_consecutive_errors: this.options.max_consecutive_errors }
        : {}),
      ...(this.options.max_total_errors !== undefined ? { max_total_errors: this.options.max_total_errors } : {}),
    });
    if (result.ignored) return;
    const from = this.machine.state.kind;
    this.machine = result.machine;
    for (const effect of result.effects) {
      if (effect.type === 'CancelSession' || effect.type === 'ForceStopSession') this.controller?.abort();
      if (effect.type === 'LogFatal') this.stopReason = effect.message;
      if (effect.type === 'StorePrompt') this.lastPrompt = effect.prompt;
    }
    if (from !== this.machine.state.kind) {
      this.options.log?.(`${this.name}: ${from} -> ${this.machine.state.kind}`);
      this.options.onChange?.(this.snapshot());
    }
  }

  /**
   * SessionStarted: the provider answered (its first event), so a request that fails
   * before any answer is a failed spawn and the consecutive error count keeps growing.
   */
  private started(): void {
    if (this.machine.state.kind !== 'Spawning') return;
    this.fire({ type: 'SessionStarted', seq: this.seq });
    // An urgent message written while the prompt was built interrupts at once.
    void this.options.mailbox
      .pendingUrgent()
      .then((to) => to.includes(this.name) && this.interrupt())
      .catch(() => undefined);
  }

  private budgetReached(): string | null {
    for (const meter of this.options.budgets ?? []) {
      const reason = meter.reached();
      if (reason) return reason;
    }
    return null;
  }

  private async run(): Promise<void> {
    const sleep = this.options.sleep ?? realSleep;
    this.fire({ type: 'WorktreeReady' });
    let idleNext = false;
    for (;;) {
      const state = this.machine.state;
      if (state.kind === 'Stopped') break;
      if (state.kind === 'BuildingPrompt') {
        const over = this.budgetReached();
        if (over) {
          await this.fatal(over);
          continue;
        }
        this.fire({ type: 'PromptReady', prompt: await this.prompt() });
      } else if (state.kind === 'Spawning') {
        this.seq += 1;
        const result = await this.session(this.seq);
        idleNext = result !== null && result.tool_calls === 0;
      } else if (state.kind === 'SessionComplete') {
        if (idleNext && !(await this.idle(sleep))) continue;
        this.fire({ type: 'WorktreeReady' });
      } else if (state.kind === 'CoolingDown') {
        await this.waker.wait(state.until - this.options.now(), sleep);
        if (this.machine.state.kind === 'CoolingDown' && this.options.now() >= state.until) {
          this.fire({ type: 'BackoffElapsed' });
        }
      } else {
        // Initializing/Running/Interrupting are handled inside the steps above.
        throw new Error(`runner for ${this.name} found itself in ${state.kind}`);
      }
    }
    if (this.graceTimer) clearTimeout(this.graceTimer);
  }

  /** Waits while idle; false when the wait ended with nothing to do (check state again). */
  private async idle(sleep: Sleep): Promise<boolean> {
    const liveness = this.options.liveness;
    const after = liveness?.enabled ? liveness.idle_nudge_after_secs : null;
    const canNudge = after !== null && after !== undefined && this.nudges < (liveness?.max_nudges ?? 0);
    const woken = await this.waker.wait(canNudge ? after * 1000 : null, sleep);
    if (this.machine.state.kind !== 'SessionComplete') return false;
    if (!woken) {
      this.nudges += 1;
      this.pendingNudge = true;
      this.options.log?.(`${this.name}: idle nudge ${this.nudges}`);
    } else this.nudges = 0;
    return true;
  }

  private async fatal(reason: string): Promise<void> {
    this.fire({ type: 'FatalError', message: reason });
    await this.options.mailbox
      .send({ from: this.name, to: OPERATOR, body: `${this.name} stopped: ${reason}` })
      .catch(() => undefined);
  }

  private async prompt(): Promise<string> {
    this.waker.clear();
    // A consume that fails marked nothing read (one transaction): the mail waits for the next prompt.
    const messages: PromptMessage[] = await this.options.mailbox.consume(this.name).catch((error: unknown) => {
      this.options.log?.(`${this.name}: reading messages failed: ${(error as Error).message}`);
      return [];
    });
    if (this.pendingNudge) {
      messages.push({ from: 'swarm', body: NUDGE_TEXT, urgent: false, sent_at: this.options.now() });
      this.pendingNudge = false;
    }
    const ready = this.options.ready_subtasks ? await this.options.ready_subtasks().catch(() => null) : null;
    const interrupt = this.interruptReason;
    this.interruptReason = null;
    return buildPrompt({
      agent_name: this.name,
      agent_prompt: this.options.agent_prompt,
      mode: this.options.mode,
      session_id: this.options.session_id,
      session_seq: this.seq + 1,
      db_path: this.options.db_path,
      worktree_path: this.options.worktree,
      agent_names: this.options.agent_names,
      colony_session_id: this.options.colony_session_id,
      project_instructions: this.options.project_instructions ?? null,
      interrupt_context: interrupt,
      environment: await this.options.environment(),
      messages,
      ready_subtasks: ready,
      now: this.options.now(),
    });
  }

  private lastPrompt = '';

  private async session(seq: number): Promise<LoopResult | null> {
    const controller = new AbortController();
    this.controller = controller;
    const system = this.lastPrompt;
    const turnUsage = new TurnUsage();
    const remaining = this.remainingBudgets();
    this.beat?.tick(true);
    await this.options.hooks?.fire('SessionStart', { session_seq: seq }).catch(() => undefined);
    const loop = runAgentLoop({
      provider: this.options.provider,
      model: this.options.model,
      system,
      messages: [{ role: 'user', content: 'Continue your work.' }],
      tools: this.options.tools.schemas,
      executor: this.options.tools.executor,
      signal: controller.signal,
      ...(remaining ? { budgets: remaining } : {}),
      ...(this.options.session_timeout_ms ? { timeout_ms: this.options.session_timeout_ms } : {}),
      ...(this.options.max_tokens_per_turn ? { max_tokens_per_turn: this.options.max_tokens_per_turn } : {}),
      beforeToolCall: () => {
        const over = this.budgetReached();
        return over ? { action: 'stop', reason: over } : { action: 'run' };
      },
      onEvent: (event) => {
        this.lastActivity = this.options.now();
        this.lastActivityEvent = event.type === 'tool_result' ? 'PostToolUse' : 'ModelResponse';
        this.beat?.tick();
        if (event.type !== 'error' && event.type !== 'retry' && event.type !== 'turn_end') this.started();
        if (event.type === 'turn_end') {
          const { tokens, usd } = turnUsage.next(event.progress);
          for (const meter of this.options.budgets ?? []) meter.addTokens(tokens, usd);
          this.tokens += tokens;
          this.usd += usd;
        }
      },
    });
    const grace = new Promise<'grace'>((resolve) => {
      this.graceResolve = () => resolve('grace');
    });
    const result = await Promise.race([loop, grace]);
    if (this.graceTimer) clearTimeout(this.graceTimer);
    this.graceTimer = null;
    this.graceResolve = null;
    this.controller = null;
    if (result === 'grace') {
      this.fire({ type: 'GraceExceeded' });
      loop.catch(() => undefined);
      return null;
    }
    await this.options.hooks
      ?.fire('SessionEnd', { session_seq: seq, outcome: result.outcome, reason: result.reason })
      .catch(() => undefined);
    await this.options.onSession?.(result, seq);
    const state = this.machine.state.kind;
    if (state === 'Stopped') return result;
    if (state === 'Interrupting') {
      this.fire({ type: 'SessionExited', outcome: { kind: 'error', message: 'interrupted' } });
      return result;
    }
    if (result.outcome === 'budget' || (result.outcome === 'stopped' && this.budgetReached())) {
      await this.fatal(this.budgetReached() ?? result.reason);
      return result;
    }
    const outcome = loopExitOutcome(result) ?? { kind: 'error' as const, message: result.reason };
    this.fire({ type: 'SessionExited', outcome });
    return result;
  }

  private remainingBudgets(): { max_tokens?: number; max_usd?: number } | null {
    const meters = this.options.budgets ?? [];
    if (meters.length === 0) return null;
    let max_tokens: number | undefined;
    let max_usd: number | undefined;
    for (const meter of meters) {
      const r = meter.remaining();
      if (r.max_tokens !== undefined) max_tokens = Math.min(max_tokens ?? Infinity, r.max_tokens);
      if (r.max_usd !== undefined) max_usd = Math.min(max_usd ?? Infinity, r.max_usd);
    }
    return { ...(max_tokens !== undefined ? { max_tokens } : {}), ...(max_usd !== undefined ? { max_usd } : {}) };
  }
}

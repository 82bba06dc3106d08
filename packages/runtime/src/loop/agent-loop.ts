/**
 * @module loop/agent-loop
 * The agent tool-use loop, written here rather than taken from an SDK's tool runner
 * because every step needs a say: before each request the budgets are checked; before
 * each tool the `beforeToolCall` hook decides (run, deny with a message the model sees,
 * or stop the loop: permissions, budgets and urgent mail plug in there); an AbortSignal
 * ends the in-flight stream at once. One session = turns until the model stops asking
 * for tools. Tools of one turn run one after another, in the model's order (shell
 * commands must not race). Usage, USD and retries are summed over every turn, failed
 * ones included. Expected endings are values (`LoopResult.outcome`), never throws.
 */
import {
  addUsage,
  type ChatMessage,
  type ErrorEvent,
  type ModelProvider,
  type ProviderEvent,
  type StopEvent,
  type ToolResultBlock,
  type ToolSchema,
  type Usage,
  ZERO_USAGE,
} from '@swarm/providers';
import type { ExitOutcome } from '../state/agent-state.js';
import type { ToolCall, ToolExecutor } from './tool-caller.js';

export interface LoopBudgets {
  /** All tokens of all turns (input, output, cache writes and reads). */
  readonly max_tokens?: number;
  /** USD of all priced turns. */
  readonly max_usd?: number;
  /** Model requests. */
  readonly max_turns?: number;
}

export interface LoopProgress {
  readonly turns: number;
  readonly usage: Usage;
  readonly cost_usd: number;
  /** Turns whose model has no price (their cost is not in cost_usd). */
  readonly unpriced_turns: number;
  readonly retries: number;
  readonly tool_calls: number;
}

export type ToolDecision =
  | { readonly action: 'run' }
  /** Not run; the model gets `message` as an error result and carries on. */
  | { readonly action: 'deny'; readonly message: string }
  /** Not run; the loop ends `stopped` with this reason once the turn's results are recorded. */
  | { readonly action: 'stop'; readonly reason: string };

export type BeforeToolCall = (call: ToolCall, progress: LoopProgress) => ToolDecision | Promise<ToolDecision>;

export type LoopEvent =
  | ProviderEvent
  | { readonly type: 'tool_result'; readonly call: ToolCall; readonly result: ToolResultBlock }
  | { readonly type: 'turn_end'; readonly progress: LoopProgress };

export interface AgentLoopOptions {
  readonly provider: ModelProvider;
  readonly model: string;
  readonly system?: string;
  readonly messages: readonly ChatMessage[];
  readonly tools: readonly ToolSchema[];
  readonly executor: ToolExecutor;
  readonly beforeToolCall?: BeforeToolCall;
  readonly budgets?: LoopBudgets;
  readonly signal?: AbortSignal;
  /** The whole session's time limit (seed `session_timeout`, in ms): past it the loop ends `timeout`. */
  readonly timeout_ms?: number;
  /** Output cap per model turn. */
  readonly max_tokens_per_turn?: number;
  readonly onEvent?: (event: LoopEvent) => void;
}

export type LoopOutcome = 'end_turn' | 'budget' | 'max_turns' | 'stopped' | 'aborted' | 'timeout' | 'error';

export interface LoopResult extends LoopProgress {
  readonly outcome: LoopOutcome;
  /** Why it ended, for logs and the state machine. */
  readonly reason: string;
  /** The whole conversation, the assistant's turns and tool results appended. */
  readonly messages: ChatMessage[];
  /** The last turn's stop reason, when a turn ended normally. */
  readonly stop_reason?: StopEvent['stop_reason'];
  readonly error?: ErrorEvent;
}

export async function runAgentLoop(options: AgentLoopOptions): Promise<LoopResult> {
  if (options.timeout_ms === undefined) return runLoop(options);
  // The session deadline aborts like the caller would; the result then says timeout.
  const controller = new AbortController();
  const onAbort = () => controller.abort();
  options.signal?.addEventListener('abort', onAbort, { once: true });
  if (options.signal?.aborted) controller.abort();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, options.timeout_ms);
  try {
    const result = await runLoop({ ...options, signal: controller.signal });
    if (result.outcome !== 'aborted' || !timedOut || options.signal?.aborted) return result;
    const seconds = Math.round(options.timeout_ms / 100) / 10;
    return { ...result, outcome: 'timeout', reason: `session timed out after ${seconds}s` };
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onAbort);
  }
}

async function runLoop(options: AgentLoopOptions): Promise<LoopResult> {
  const messages: ChatMessage[] = [...options.messages];
  const signal = options.signal ?? new AbortController().signal;
  let progress: LoopProgress = {
    turns: 0,
    usage: ZERO_USAGE,
    cost_usd: 0,
    unpriced_turns: 0,
    retries: 0,
    tool_calls: 0,
  };
  const end = (outcome: LoopOutcome, reason: string, extra: Partial<LoopResult> = {}): LoopResult => ({
    ...progress,
    outcome,
    reason,
    messages,
    ...extra,
  });
  for (;;) {
    if (signal.aborted) return end('aborted', 'aborted by the caller');
    const over = overBudget(progress, options.budgets);
    if (over) return end(over.outcome, over.reason);
    let last: StopEvent | ErrorEvent | undefined;
    const turn = options.provider.stream(
      {
        model: options.model,
        ...(options.system ? { system: options.system } : {}),
        messages,
        tools: options.tools,
        ...(options.max_tokens_per_turn ? { max_tokens: options.max_tokens_per_turn } : {}),
      },
      { signal },
    );
    for await (const event of turn) {
      options.onEvent?.(event);
      if (event.type === 'stop' || event.type === 'error') {
        last = event;
        break;
      }
    }
    last ??= { type: 'error', kind: 'protocol', message: 'provider stream ended without a stop event', retries: 0 };
    const usage = last.type === 'stop' ? last.usage : (last.usage ?? ZERO_USAGE);
    const cost = last.type === 'stop' ? last.cost_usd : null;
    progress = {
      ...progress,
      turns: progress.turns + 1,
      usage: addUsage(progress.usage, usage),
      cost_usd: progress.cost_usd + (cost ?? 0),
      unpriced_turns: progress.unpriced_turns + (last.type === 'stop' && cost === null ? 1 : 0),
      retries: progress.retries + last.retries,
    };
    if (last.type === 'error') {
      options.onEvent?.({ type: 'turn_end', progress });
      if (last.kind === 'aborted' || signal.aborted) return end('aborted', 'aborted by the caller', { error: last });
      return end('error', `${last.kind}: ${last.message}`, { error: last });
    }
    messages.push(last.message);
    const stopReason = last.stop_reason;
    const calls = toolCalls(last.message);
    if (stopReason !== 'tool_use' || calls.length === 0) {
      options.onEvent?.({ type: 'turn_end', progress });
      return end('end_turn', `model stopped: ${stopReason}`, { stop_reason: stopReason });
    }
    const results: ToolResultBlock[] = [];
    let stopped: string | undefined;
    for (const call of calls) {
      let result: ToolResultBlock;
      if (signal.aborted) {
        result = { type: 'tool_result', tool_use_id: call.id, content: 'not run: aborted', is_error: true };
      } else if (stopped) {
        result = { type: 'tool_result', tool_use_id: call.id, content: `not run: ${stopped}`, is_error: true };
      } else {
        const decision = options.beforeToolCall
          ? await options.beforeToolCall(call, progress)
          : { action: 'run' as const };
        if (decision.action === 'stop') {
          stopped = decision.reason;
          result = {
            type: 'tool_result',
            tool_use_id: call.id,
            content: `not run: ${decision.reason}`,
            is_error: true,
          };
        } else if (decision.action === 'deny') {
          result = { type: 'tool_result', tool_use_id: call.id, content: decision.message, is_error: true };
        } else {
          result = await execute(options.executor, call, signal);
        }
      }
      progress = { ...progress, tool_calls: progress.tool_calls + 1 };
      results.push(result);
      options.onEvent?.({ type: 'tool_result', call, result });
    }
    messages.push({ role: 'user', content: results });
    options.onEvent?.({ type: 'turn_end', progress });
    if (signal.aborted) return end('aborted', 'aborted by the caller', { stop_reason: stopReason });
    if (stopped) return end('stopped', stopped, { stop_reason: stopReason });
  }
}

function toolCalls(message: ChatMessage): ToolCall[] {
  if (typeof message.content === 'string') return [];
  return message.content.flatMap((b) => (b.type === 'tool_use' ? [{ id: b.id, name: b.name, input: b.input }] : []));
}

async function execute(executor: ToolExecutor, call: ToolCall, signal: AbortSignal): Promise<ToolResultBlock> {
  try {
    const result = await executor.execute(call, { signal });
    return { type: 'tool_result', tool_use_id: call.id, content: result.content, is_error: result.is_error === true };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return {
      type: 'tool_result',
      tool_use_id: call.id,
      content: `tool ${call.name} failed: ${message}`,
      is_error: true,
    };
  }
}

function totalTokens(usage: Usage): number {
  return usage.input_tokens + usage.output_tokens + usage.cache_creation_input_tokens + usage.cache_read_input_tokens;
}

/** The budget the next request would break, if any. */
export function overBudget(
  progress: LoopProgress,
  budgets: LoopBudgets | undefined,
): { outcome: 'budget' | 'max_turns'; reason: string } | null {
  if (!budgets) return null;
  const tokens = totalTokens(progress.usage);
  if (budgets.max_tokens !== undefined && tokens >= budgets.max_tokens) {
    return { outcome: 'budget', reason: `token budget reached: used ${tokens} of max_tokens ${budgets.max_tokens}` };
  }
  if (budgets.max_usd !== undefined && progress.cost_usd >= budgets.max_usd) {
    const used = progress.cost_usd.toFixed(6);
    return { outcome: 'budget', reason: `cost budget reached: used $${used} of max_usd $${budgets.max_usd}` };
  }
  if (budgets.max_turns !== undefined && progress.turns >= budgets.max_turns) {
    return { outcome: 'max_turns', reason: `turn limit reached: ${progress.turns} of max_turns ${budgets.max_turns}` };
  }
  return null;
}

/**
 * What a finished loop means to the state machine: a model that stopped (or a hook
 * that stopped it) is a successful session; a budget or turn limit is an error (so an
 * agent over budget cools down and, past its limits, stops instead of looping); a
 * provider or session timeout is Timeout. An aborted loop has no outcome of its own (null): the
 * runner knows whether it cancelled for an interrupt or a stop.
 */
export function loopExitOutcome(result: LoopResult): ExitOutcome | null {
  switch (result.outcome) {
    case 'end_turn':
    case 'stopped':
      return { kind: 'success' };
    case 'aborted':
      return null;
    case 'timeout':
      return { kind: 'timeout' };
    case 'error':
      return result.error?.kind === 'timeout' ? { kind: 'timeout' } : { kind: 'error', message: result.reason };
    default:
      return { kind: 'error', message: result.reason };
  }
}

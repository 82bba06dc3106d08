/**
 * @module scripted
 * The `scripted` provider: replays a list of turns (text, tool calls, errors, delays)
 * for demos and tests. Turn i answers the i-th request; a script can also be a function
 * of the request. Past the end of the script every turn is an `error` (protocol), so a
 * loop that asks too often fails loudly. A delay honours the AbortSignal. The same
 * script given to a new provider replays identically; `requests` keeps what was asked.
 */
import { costUsd, type ModelPrice, resolveModel } from './models.js';
import type {
  ChatMessage,
  ContentBlock,
  ModelProvider,
  ProviderErrorKind,
  ProviderEvent,
  StopReason,
  TurnOptions,
  TurnRequest,
  Usage,
} from './types.js';
import { ZERO_USAGE } from './types.js';

export interface ScriptedToolCall {
  readonly id?: string;
  readonly name: string;
  readonly input?: Record<string, unknown>;
}

export interface ScriptedTurn {
  readonly text?: string;
  readonly tool_calls?: readonly ScriptedToolCall[];
  /** Default: `tool_use` with tool calls, else `end_turn`. */
  readonly stop_reason?: StopReason;
  readonly usage?: Partial<Usage>;
  /** Wait this long (ms) before answering; an abort during the wait ends the turn `aborted`. */
  readonly delay_ms?: number;
  /** Answer with this error instead (after the delay and any text). */
  readonly error?: { readonly kind: ProviderErrorKind; readonly message: string; readonly status?: number };
  /** Retries to report before the answer (each one a `retry` event). */
  readonly retries?: number;
}

export type Script = readonly ScriptedTurn[] | ((request: TurnRequest, index: number) => ScriptedTurn | undefined);

export interface ScriptedProvider extends ModelProvider {
  readonly kind: 'scripted';
  /** Every request received, in order. */
  readonly requests: TurnRequest[];
}

export interface ScriptedProviderOptions {
  readonly models?: Readonly<Record<string, string>>;
  readonly prices?: Readonly<Record<string, ModelPrice>>;
}

export function scriptedProvider(script: Script, options: ScriptedProviderOptions = {}): ScriptedProvider {
  const requests: TurnRequest[] = [];
  return {
    kind: 'scripted',
    requests,
    stream(request, turnOptions) {
      // A snapshot: callers keep appending to their message list.
      const index = requests.push({ ...request, messages: [...request.messages] }) - 1;
      const turn = typeof script === 'function' ? script(request, index) : script[index];
      return replay(turn, index, request, options, turnOptions ?? {});
    },
  };
}

async function* replay(
  turn: ScriptedTurn | undefined,
  index: number,
  request: TurnRequest,
  options: ScriptedProviderOptions,
  turnOptions: TurnOptions,
): AsyncGenerator<ProviderEvent> {
  if (!turn) {
    yield { type: 'error', kind: 'protocol', message: `scripted: no turn ${index + 1} in the script`, retries: 0 };
    return;
  }
  const retries = turn.retries ?? 0;
  for (let attempt = 1; attempt <= retries; attempt++) {
    yield { type: 'retry', attempt, status: 529, reason: 'scripted retry' };
  }
  if (turn.delay_ms && !(await sleep(turn.delay_ms, turnOptions.signal))) {
    yield { type: 'error', kind: 'aborted', message: 'aborted by the caller', retries };
    return;
  }
  if (turnOptions.signal?.aborted) {
    yield { type: 'error', kind: 'aborted', message: 'aborted by the caller', retries };
    return;
  }
  const content: ContentBlock[] = [];
  if (turn.text) {
    content.push({ type: 'text', text: turn.text });
    yield { type: 'text', text: turn.text };
  }
  if (turn.error) {
    yield { type: 'error', ...turn.error, retries };
    return;
  }
  for (const [i, call] of (turn.tool_calls ?? []).entries()) {
    const block = {
      type: 'tool_use' as const,
      id: call.id ?? `call_${index + 1}_${i}`,
      name: call.name,
      input: call.input ?? {},
    };
    content.push(block);
    yield block;
  }
  const usage: Usage = { ...ZERO_USAGE, ...turn.usage };
  const model = resolveModel(request.model, options.models);
  const stop_reason = turn.stop_reason ?? (turn.tool_calls?.length ? 'tool_use' : 'end_turn');
  const message: ChatMessage = { role: 'assistant', content };
  yield { type: 'stop', stop_reason, message, usage, cost_usd: costUsd(model, usage, options.prices), retries, model };
}

/** Resolves true after `ms`, or false as soon as the signal aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve(false);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

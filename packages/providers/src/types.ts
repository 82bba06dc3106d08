/**
 * @module types
 * The vocabulary every provider speaks: a conversation in (messages, tool schemas as
 * plain JSON Schema), a stream of events out. The message shape is the Anthropic
 * Messages one (content blocks), the richest of the wire formats; the other providers
 * translate to and from it. A stream always ends with exactly one terminal event,
 * `stop` or `error`; nothing follows it. Failures are events (values), never throws.
 */

/** A tool the model may call: plain JSON Schema, so no colony package is needed here. */
export interface ToolSchema {
  readonly name: string;
  readonly description?: string;
  readonly input_schema: Record<string, unknown>;
}

export interface TextBlock {
  readonly type: 'text';
  readonly text: string;
}

export interface ToolUseBlock {
  readonly type: 'tool_use';
  readonly id: string;
  readonly name: string;
  readonly input: Record<string, unknown>;
}

export interface ToolResultBlock {
  readonly type: 'tool_result';
  readonly tool_use_id: string;
  readonly content: string;
  readonly is_error?: boolean;
}

export type ContentBlock = TextBlock | ToolUseBlock | ToolResultBlock;

export interface ChatMessage {
  readonly role: 'user' | 'assistant';
  readonly content: string | readonly ContentBlock[];
}

/** One model turn to run. */
export interface TurnRequest {
  /** A model id or an alias (`sonnet`, `opus`, `haiku`); providers resolve aliases. */
  readonly model: string;
  readonly system?: string;
  readonly messages: readonly ChatMessage[];
  readonly tools?: readonly ToolSchema[];
  /** Output token cap of this turn (default 8192). */
  readonly max_tokens?: number;
}

export interface TurnOptions {
  /** Aborting ends the stream with an `error` event of kind `aborted`, promptly. */
  readonly signal?: AbortSignal;
}

/** Token usage of one turn, Anthropic's names; absent cache counts are 0. */
export interface Usage {
  readonly input_tokens: number;
  readonly output_tokens: number;
  readonly cache_creation_input_tokens: number;
  readonly cache_read_input_tokens: number;
}

export const ZERO_USAGE: Usage = {
  input_tokens: 0,
  output_tokens: 0,
  cache_creation_input_tokens: 0,
  cache_read_input_tokens: 0,
};

/** `end_turn`: the model is done; `tool_use`: it wants tool results; the rest end the turn too. */
export type StopReason = 'end_turn' | 'tool_use' | 'max_tokens' | 'stop_sequence' | 'refusal' | 'other';

/** Why a turn failed. `aborted` = the caller's signal; `timeout` = the provider's time limit. */
export type ProviderErrorKind =
  | 'aborted'
  | 'timeout'
  | 'rate_limited'
  | 'overloaded'
  | 'api_error'
  | 'auth'
  | 'bad_request'
  | 'connection'
  | 'protocol'
  | 'process';

export type ProviderEvent =
  /** A piece of the assistant's text, as it arrives. */
  | { readonly type: 'text'; readonly text: string }
  /**
   * A complete tool call. `external: true` means the provider (an agent CLI) already ran
   * it itself: the caller reports it and must not run it again.
   */
  | {
      readonly type: 'tool_use';
      readonly id: string;
      readonly name: string;
      readonly input: Record<string, unknown>;
      readonly external?: boolean;
    }
  /** One more attempt of the same request after a transient failure (every retry is one event). */
  | { readonly type: 'retry'; readonly attempt: number; readonly status?: number; readonly reason: string }
  /** Terminal: the turn ended. `message` is the assistant message to append to the conversation. */
  | {
      readonly type: 'stop';
      readonly stop_reason: StopReason;
      readonly message: ChatMessage;
      readonly usage: Usage;
      /** USD from the price table; null when the model has no price entry. */
      readonly cost_usd: number | null;
      readonly retries: number;
      readonly model: string;
    }
  /** Terminal: the turn failed. */
  | {
      readonly type: 'error';
      readonly kind: ProviderErrorKind;
      readonly message: string;
      readonly status?: number;
      readonly retries: number;
      /** What the turn used before it failed (a command provider's partial run, for example). */
      readonly usage?: Usage;
    };

export type StopEvent = Extract<ProviderEvent, { type: 'stop' }>;
export type ErrorEvent = Extract<ProviderEvent, { type: 'error' }>;

export type ProviderKind = 'anthropic' | 'openai' | 'command' | 'scripted';

/** A model behind some wire protocol: one streaming turn at a time. */
export interface ModelProvider {
  readonly kind: ProviderKind;
  /** Streams one turn. Never throws: failures arrive as the terminal `error` event. */
  stream(request: TurnRequest, options?: TurnOptions): AsyncIterable<ProviderEvent>;
}

/** Drains a stream: the events seen and the terminal one. */
export async function collectTurn(
  events: AsyncIterable<ProviderEvent>,
): Promise<{ events: ProviderEvent[]; end: StopEvent | ErrorEvent }> {
  const seen: ProviderEvent[] = [];
  for await (const event of events) {
    seen.push(event);
    if (event.type === 'stop' || event.type === 'error') return { events: seen, end: event };
  }
  const end: ErrorEvent = { type: 'error', kind: 'protocol', message: 'stream ended without a stop event', retries: 0 };
  return { events: seen, end };
}

export function addUsage(a: Usage, b: Usage): Usage {
  return {
    input_tokens: a.input_tokens + b.input_tokens,
    output_tokens: a.output_tokens + b.output_tokens,
    cache_creation_input_tokens: a.cache_creation_input_tokens + b.cache_creation_input_tokens,
    cache_read_input_tokens: a.cache_read_input_tokens + b.cache_read_input_tokens,
  };
}

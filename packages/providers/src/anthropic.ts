/**
 * @module anthropic
 * The `anthropic` provider: one streamed Messages API call per turn through the real
 * `@anthropic-ai/sdk` (`client.messages.stream(params, { signal })`). ProviderConfig
 * maps onto the SDK: `base_url` -> `baseURL`, `api_key_env` names the variable holding
 * the key, `max_retries` -> `maxRetries`, `timeout` (seconds) -> `timeout` (ms).
 * The SDK retries transient failures itself (408/409/429/5xx/connection); a counting
 * `fetch` sees every attempt, so every retry is reported as a `retry` event and in the
 * terminal event's `retries`. Tool inputs arrive as `input_json_delta` fragments and are
 * parsed when their block stops.
 */

import Anthropic from '@anthropic-ai/sdk';
import { idleAbort } from './_idle-abort.js';
import { costUsd, type ModelPrice, resolveModel } from './models.js';
import {
  type ChatMessage,
  type ContentBlock,
  type ErrorEvent,
  type ModelProvider,
  type ProviderErrorKind,
  type ProviderEvent,
  type StopReason,
  type TurnOptions,
  type TurnRequest,
  type Usage,
  ZERO_USAGE,
} from './types.js';

export interface AnthropicProviderConfig {
  readonly base_url?: string | null;
  /** The environment variable holding the API key (default `ANTHROPIC_API_KEY`). */
  readonly api_key_env?: string;
  /** Retries of a transient failure (SDK default 2 when null). */
  readonly max_retries?: number | null;
  /** Per-request time limit in seconds (SDK default 10 min when null). */
  readonly timeout?: number | null;
  /** Alias overrides (`{ "sonnet": "<id>" }`). */
  readonly models?: Readonly<Record<string, string>>;
  readonly prices?: Readonly<Record<string, ModelPrice>>;
  /** Where the key is read from (default `process.env`). */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /**
   * Prompt caching (default true): a top-level `cache_control` breakpoint that moves
   * forward as the conversation grows, so tools, system and earlier turns are read from
   * the cache (about a tenth of the input price) on every turn of an agent loop.
   */
  readonly prompt_cache?: boolean;
}

export const DEFAULT_MAX_TOKENS = 8192;

export function anthropicProvider(config: AnthropicProviderConfig = {}): ModelProvider {
  return { kind: 'anthropic', stream: (request, options) => streamAnthropic(config, request, options ?? {}) };
}

interface OpenBlock {
  type: 'text' | 'tool_use' | 'other';
  text: string;
  id: string;
  name: string;
  json: string;
}

async function* streamAnthropic(
  config: AnthropicProviderConfig,
  request: TurnRequest,
  options: TurnOptions,
): AsyncGenerator<ProviderEvent> {
  const keyEnv = config.api_key_env ?? 'ANTHROPIC_API_KEY';
  const apiKey = (config.env ?? process.env)[keyEnv];
  if (!apiKey) {
    yield { type: 'error', kind: 'auth', message: `environment variable ${keyEnv} is not set`, retries: 0 };
    return;
  }
  const turn = idleAbort(options.signal, config.timeout);
  const arm = turn.arm;
  let attempts = 0;
  let lastStatus: number | undefined;
  const pending: ProviderEvent[] = [];
  const countingFetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    attempts++;
    if (attempts > 1) {
      const reason = lastStatus === undefined ? 'connection error or timeout' : `HTTP ${lastStatus}`;
      pending.push({ type: 'retry', attempt: attempts - 1, ...(lastStatus ? { status: lastStatus } : {}), reason });
    }
    lastStatus = undefined;
    arm();
    const response = await fetch(input, init);
    lastStatus = response.status;
    return response;
  };
  const client = new Anthropic({
    apiKey,
    baseURL: config.base_url ?? undefined,
    maxRetries: config.max_retries ?? 2,
    ...(config.timeout != null ? { timeout: config.timeout * 1000 } : {}),
    fetch: countingFetch,
  });
  const model = resolveModel(request.model, config.models);
  const retries = () => Math.max(0, attempts - 1);
  const blocks = new Map<number, OpenBlock>();
  const content: ContentBlock[] = [];
  let usage: Usage = ZERO_USAGE;
  let stopReason: StopReason = 'other';
  try {
    const stream = client.messages.stream(
      {
        model,
        max_tokens: request.max_tokens ?? DEFAULT_MAX_TOKENS,
        ...(request.system ? { system: request.system } : {}),
        messages: request.messages as Anthropic.MessageParam[],
        ...(config.prompt_cache === false ? {} : { cache_control: { type: 'ephemeral' as const } }),
        ...(request.tools?.length ? { tools: request.tools as Anthropic.Tool[] } : {}),
      },
      { signal: turn.signal },
    );
    for await (const event of stream) {
      arm();
      yield* pending.splice(0);
      switch (event.type) {
        case 'message_start':
          usage = mergeUsage(usage, event.message.usage);
          break;
        case 'content_block_start': {
          const block = event.content_block;
          const open: OpenBlock = { type: 'other', text: '', id: '', name: '', json: '' };
          if (block.type === 'text') open.type = 'text';
          if (block.type === 'tool_use') Object.assign(open, { type: 'tool_use', id: block.id, name: block.name });
          blocks.set(event.index, open);
          break;
        }
        case 'content_block_delta': {
          const open = blocks.get(event.index);
          if (!open) break;
          if (event.delta.type === 'text_delta') {
            open.text += event.delta.text;
            yield { type: 'text', text: event.delta.text };
          } else if (event.delta.type === 'input_json_delta') {
            open.json += event.delta.partial_json;
          }
          break;
        }
        case 'content_block_stop': {
          const open = blocks.get(event.index);
          if (open?.type === 'text') content.push({ type: 'text', text: open.text });
          if (open?.type === 'tool_use') {
            const input = parseInput(open.json);
            if (input === null) {
              yield protocolError(`tool_use ${open.name}: input is not a JSON object`, retries());
              return;
            }
            content.push({ type: 'tool_use', id: open.id, name: open.name, input });
            yield { type: 'tool_use', id: open.id, name: open.name, input };
          }
          break;
        }
        case 'message_delta':
          usage = mergeUsage(usage, event.usage);
          stopReason = toStopReason(event.delta.stop_reason);
          break;
        default:
          break;
      }
    }
  } catch (error) {
    yield* pending.splice(0);
    if (turn.timedOut() && !options.signal?.aborted) {
      const message = `no data for ${config.timeout}s (provider timeout)`;
      yield { type: 'error', kind: 'timeout', message, retries: retries(), usage };
    } else {
      yield toErrorEvent(error, options.signal, retries(), usage);
    }
    return;
  } finally {
    turn.dispose();
  }
  yield* pending.splice(0);
  const message: ChatMessage = { role: 'assistant', content };
  const cost_usd = costUsd(model, usage, config.prices);
  yield { type: 'stop', stop_reason: stopReason, message, usage, cost_usd, retries: retries(), model };
}

type WireUsage = {
  input_tokens?: number | null;
  output_tokens?: number | null;
  cache_creation_input_tokens?: number | null;
  cache_read_input_tokens?: number | null;
};

/** message_delta usage is cumulative: a present count replaces the earlier one. */
function mergeUsage(base: Usage, wire: WireUsage): Usage {
  return {
    input_tokens: wire.input_tokens ?? base.input_tokens,
    output_tokens: wire.output_tokens ?? base.output_tokens,
    cache_creation_input_tokens: wire.cache_creation_input_tokens ?? base.cache_creation_input_tokens,
    cache_read_input_tokens: wire.cache_read_input_tokens ?? base.cache_read_input_tokens,
  };
}

function parseInput(json: string): Record<string, unknown> | null {
  if (json.trim() === '') return {};
  try {
    const value: unknown = JSON.parse(json);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

const STOP_REASONS = new Set<StopReason>(['end_turn', 'tool_use', 'max_tokens', 'stop_sequence', 'refusal']);

function toStopReason(reason: string | null | undefined): StopReason {
  return reason && STOP_REASONS.has(reason as StopReason) ? (reason as StopReason) : 'other';
}

function protocolError(message: string, retries: number): ErrorEvent {
  return { type: 'error', kind: 'protocol', message, retries };
}

function toErrorEvent(error: unknown, signal: AbortSignal | undefined, retries: number, usage: Usage): ErrorEvent {
  const message = error instanceof Error ? error.message : String(error);
  const base = { type: 'error' as const, retries, usage };
  if (signal?.aborted || error instanceof Anthropic.APIUserAbortError) {
    return { ...base, kind: 'aborted', message: 'aborted by the caller' };
  }
  if (error instanceof Anthropic.APIConnectionTimeoutError) return { ...base, kind: 'timeout', message };
  if (error instanceof Anthropic.APIConnectionError) return { ...base, kind: 'connection', message };
  if (error instanceof Anthropic.APIError) {
    const status = error.status;
    const wireType = (error.error as { error?: { type?: string } } | undefined)?.error?.type;
    return { ...base, kind: kindOf(status, wireType), message, ...(status ? { status } : {}) };
  }
  return { ...base, kind: 'protocol', message };
}

function kindOf(status: number | undefined, wireType: string | undefined): ProviderErrorKind {
  if (status === 429 || wireType === 'rate_limit_error') return 'rate_limited';
  if (status === 529 || wireType === 'overloaded_error') return 'overloaded';
  if (status === 401 || status === 403) return 'auth';
  if (status !== undefined && status >= 400 && status < 500) return 'bad_request';
  return 'api_error';
}

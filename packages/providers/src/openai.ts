/**
 * @module openai
 * The `openai` provider: any OpenAI-compatible Chat Completions endpoint
 * (`POST {base_url}/chat/completions`, `stream: true`), over `fetch`, with SSE parsed by
 * `eventsource-parser`. `chat.completion.chunk` deltas carry text and `tool_calls`
 * fragments (by index: id and name first, `arguments` JSON in pieces); a final chunk
 * carries usage (`stream_options.include_usage`). Transient failures (408, 409, 429,
 * 5xx, connection errors) are retried up to `max_retries` with `retry-after-ms` /
 * `retry-after` or a capped exponential wait, each retry reported as an event.
 *
 * A model without native tool calling (`native_tools: false`) gets no `tools` field;
 * when its text carries seed 000's `{"tool_calls": [...]}` envelope, the calls are
 * surfaced as tool_use events (and the turn stops with `tool_use`) all the same.
 */

import { createParser } from 'eventsource-parser';
import { findEnvelopeCalls } from './_envelope.js';
import { idleAbort } from './_idle-abort.js';
import { toStopReason, toUsage, toWireMessages, toWireTools, type WireUsage } from './_openai-wire.js';
import { costUsd, type ModelPrice, resolveModel } from './models.js';
import { sleep } from './scripted.js';
import type {
  ContentBlock,
  ErrorEvent,
  ModelProvider,
  ProviderErrorKind,
  ProviderEvent,
  TurnOptions,
  TurnRequest,
  Usage,
} from './types.js';
import { ZERO_USAGE } from './types.js';

export interface OpenAIProviderConfig {
  /** Default `https://api.openai.com/v1`. */
  readonly base_url?: string | null;
  /** Default `OPENAI_API_KEY`; a variable that is unset sends no Authorization header (local servers). */
  readonly api_key_env?: string;
  /** Default 2. */
  readonly max_retries?: number | null;
  /** Seconds without data before the turn fails `timeout` (none when null). */
  readonly timeout?: number | null;
  /** False for models without function calling: tools are not sent; envelopes in text become calls. */
  readonly native_tools?: boolean;
  readonly models?: Readonly<Record<string, string>>;
  readonly prices?: Readonly<Record<string, ModelPrice>>;
  readonly env?: Readonly<Record<string, string | undefined>>;
  /**
   * The request field for the output cap: `max_tokens` (default; what compatible servers
   * take) or `max_completion_tokens` (OpenAI's newer models refuse `max_tokens`).
   */
  readonly max_tokens_field?: 'max_tokens' | 'max_completion_tokens';
  /** Wait before retry n (ms), when the server names none (default min(500 * 2^(n-1), 8000)). */
  readonly retry_delay_ms?: (attempt: number) => number;
}

export function openaiProvider(config: OpenAIProviderConfig = {}): ModelProvider {
  return { kind: 'openai', stream: (request, options) => streamOpenAI(config, request, options ?? {}) };
}

const RETRYABLE = (status: number) => status === 408 || status === 409 || status === 429 || status >= 500;

interface OpenCall {
  id: string;
  name: string;
  args: string;
}

async function* streamOpenAI(
  config: OpenAIProviderConfig,
  request: TurnRequest,
  options: TurnOptions,
): AsyncGenerator<ProviderEvent> {
  const nativeTools = config.native_tools ?? true;
  const model = resolveModel(request.model, config.models);
  const key = (config.env ?? process.env)[config.api_key_env ?? 'OPENAI_API_KEY'];
  const url = `${(config.base_url ?? 'https://api.openai.com/v1').replace(/\/+$/, '')}/chat/completions`;
  const body = JSON.stringify({
    model,
    messages: toWireMessages(request, nativeTools),
    [config.max_tokens_field ?? 'max_tokens']: request.max_tokens ?? 8192,
    stream: true,
    stream_options: { include_usage: true },
    ...(nativeTools && request.tools?.length ? { tools: toWireTools(request.tools) } : {}),
  });
  const turn = idleAbort(options.signal, config.timeout);
  const arm = turn.arm;
  const maxRetries = config.max_retries ?? 2;
  let retries = 0;
  let usage: Usage = ZERO_USAGE;
  const fail = (kind: ProviderErrorKind, message: string, status?: number): ErrorEvent => ({
    type: 'error',
    kind,
    message,
    retries,
    usage,
    ...(status ? { status } : {}),
  });
  const interrupted = (): ErrorEvent | null => {
    if (options.signal?.aborted) return fail('aborted', 'aborted by the caller');
    if (turn.timedOut()) return fail('timeout', `no data for ${config.timeout}s (provider timeout)`);
    return null;
  };
  try {
    let response: Response | undefined;
    for (;;) {
      arm();
      let status: number | undefined;
      let wait: number | undefined;
      try {
        response = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}) },
          body,
          signal: turn.signal,
        });
        if (response.ok) break;
        status = response.status;
        wait = retryAfter(response.headers);
        const text = await response.text().catch(() => '');
        if (!RETRYABLE(status) || retries >= maxRetries) {
          yield fail(kindOf(status), errorMessage(text) ?? `HTTP ${status}`, status);
          return;
        }
      } catch (error) {
        const stop = interrupted();
        if (stop) return yield stop;
        if (retries >= maxRetries) return yield fail('connection', (error as Error).message);
      }
      retries++;
      yield {
        type: 'retry',
        attempt: retries,
        ...(status ? { status } : {}),
        reason: status ? `HTTP ${status}` : 'connection error',
      };
      const delay = wait ?? config.retry_delay_ms?.(retries) ?? Math.min(500 * 2 ** (retries - 1), 8000);
      if (!(await sleep(delay, turn.signal))) return yield interrupted() ?? fail('aborted', 'aborted');
    }
    const calls = new Map<number, OpenCall>();
    let text = '';
    let finish: string | null = null;
    const queue: string[] = [];
    const parser = createParser({ onEvent: (event) => queue.push(event.data) });
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    let done = false;
    while (!done) {
      let chunk: Awaited<ReturnType<typeof reader.read>>;
      try {
        chunk = await reader.read();
      } catch (error) {
        return yield interrupted() ?? fail('connection', (error as Error).message);
      }
      arm();
      if (chunk.done) break;
      parser.feed(decoder.decode(chunk.value, { stream: true }));
      for (const data of queue.splice(0)) {
        if (data.trim() === '[DONE]') {
          done = true;
          break;
        }
        let parsed: ChunkShape;
        try {
          parsed = JSON.parse(data) as ChunkShape;
        } catch {
          return yield fail('protocol', `unparsable chunk: ${data.slice(0, 80)}`);
        }
        if (parsed.error) return yield fail('api_error', parsed.error.message ?? 'error in stream');
        if (parsed.usage) usage = toUsage(parsed.usage);
        const choice = parsed.choices?.[0];
        if (!choice) continue;
        if (choice.delta?.content) {
          text += choice.delta.content;
          yield { type: 'text', text: choice.delta.content };
        }
        for (const part of choice.delta?.tool_calls ?? []) {
          const open = calls.get(part.index) ?? { id: '', name: '', args: '' };
          if (part.id) open.id = part.id;
          if (part.function?.name) open.name += part.function.name;
          if (part.function?.arguments) open.args += part.function.arguments;
          calls.set(part.index, open);
        }
        if (choice.finish_reason) finish = choice.finish_reason;
      }
    }
    await reader.cancel().catch(() => {});
    const content: ContentBlock[] = text ? [{ type: 'text', text }] : [];
    for (const [index, call] of [...calls.entries()].sort((a, b) => a[0] - b[0])) {
      const input = parseArgs(call.args);
      if (input === null) return yield fail('protocol', `tool call ${call.name}: arguments are not a JSON object`);
      const id = call.id || `call_${index}`;
      content.push({ type: 'tool_use', id, name: call.name, input });
      yield { type: 'tool_use', id, name: call.name, input };
    }
    let envelope = false;
    if (calls.size === 0 && request.tools?.length) {
      for (const [i, call] of findEnvelopeCalls(text).entries()) {
        const id = `envelope_${i}`;
        envelope = true;
        content.push({ type: 'tool_use', id, name: call.name, input: call.input });
        yield { type: 'tool_use', id, name: call.name, input: call.input };
      }
    }
    const stop_reason = envelope ? 'tool_use' : toStopReason(finish, calls.size > 0);
    const cost_usd = costUsd(model, usage, config.prices);
    yield { type: 'stop', stop_reason, message: { role: 'assistant', content }, usage, cost_usd, retries, model };
  } finally {
    turn.dispose();
  }
}

interface ChunkShape {
  error?: { message?: string };
  usage?: WireUsage | null;
  choices?: Array<{
    delta?: {
      content?: string | null;
      tool_calls?: Array<{ index: number; id?: string; function?: { name?: string; arguments?: string } }>;
    };
    finish_reason?: string | null;
  }>;
}

function parseArgs(args: string): Record<string, unknown> | null {
  if (args.trim() === '') return {};
  try {
    const value: unknown = JSON.parse(args);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

function retryAfter(headers: Headers): number | undefined {
  const ms = Number(headers.get('retry-after-ms'));
  if (Number.isFinite(ms) && ms > 0) return ms;
  const seconds = Number(headers.get('retry-after'));
  if (Number.isFinite(seconds) && seconds > 0) return seconds * 1000;
  return undefined;
}

function errorMessage(text: string): string | undefined {
  try {
    return (JSON.parse(text) as { error?: { message?: string } }).error?.message;
  } catch {
    return text.slice(0, 200) || undefined;
  }
}

function kindOf(status: number): ProviderErrorKind {
  if (status === 429) return 'rate_limited';
  if (status === 529 || status === 503) return 'overloaded';
  if (status === 401 || status === 403) return 'auth';
  if (status >= 400 && status < 500) return 'bad_request';
  return 'api_error';
}

/**
 * @module testing/fake-anthropic
 * A local server speaking the Anthropic Messages API (`POST /v1/messages`) on
 * 127.0.0.1, so the real `@anthropic-ai/sdk` runs in tests with no key and no network.
 * Each request takes the next scripted reply (or asks `respond`):
 *  - a message: streamed as the API streams it (message_start, ping, per block
 *    content_block_start / content_block_delta (text_delta, or input_json_delta
 *    fragments that only parse once joined) / content_block_stop, message_delta with
 *    the stop reason and usage, message_stop), or as one JSON object without `stream`;
 *  - a status (500, 429, 529, ...) in the API's error shape, with `retry-after-ms`;
 *  - `hold`: starts the stream, sends some text, and keeps the connection open until
 *    the client drops it (abort and timeout tests; `dropped` counts the drops);
 *  - `stream_error`: an `event: error` after the 200 status (mid-stream overload).
 * Every request is kept in `requests` (headers and body) for assertions.
 */
import { createServer, type ServerResponse } from 'node:http';
import { listen, pieces, readJson, sendJson, until } from './_http.js';

export interface FakeToolUse {
  readonly id?: string;
  readonly name: string;
  readonly input: Record<string, unknown>;
}

export interface FakeUsage {
  readonly input_tokens?: number;
  readonly output_tokens?: number;
  readonly cache_creation_input_tokens?: number;
  readonly cache_read_input_tokens?: number;
}

export type FakeAnthropicReply =
  | {
      readonly kind?: 'message';
      readonly text?: string;
      readonly tool_uses?: readonly FakeToolUse[];
      /** Default: `tool_use` when there are tool uses, else `end_turn`. */
      readonly stop_reason?: string;
      readonly usage?: FakeUsage;
    }
  | { readonly kind: 'status'; readonly status: number; readonly message?: string; readonly retry_after_ms?: number }
  | { readonly kind: 'hold'; readonly text?: string }
  | { readonly kind: 'stream_error'; readonly error_type: string; readonly text?: string };

export interface RecordedRequest {
  /** When the request's body had arrived (epoch ms, the system clock). */
  readonly at: number;
  readonly headers: Record<string, string | string[] | undefined>;
  // biome-ignore lint/suspicious/noExplicitAny: a wire body, asserted on freely by tests
  readonly body: any;
}

export interface FakeAnthropic {
  readonly baseURL: string;
  readonly requests: RecordedRequest[];
  /** Appends replies to the script. */
  enqueue(...replies: FakeAnthropicReply[]): void;
  /** Held streams the client has dropped so far. */
  dropped(): number;
  /** Resolves once `n` requests have arrived. */
  waitForRequests(n: number, ms?: number): Promise<void>;
  close(): Promise<void>;
}

export interface FakeAnthropicOptions {
  readonly replies?: readonly FakeAnthropicReply[];
  /** Computes a reply per request instead of the queue (when it returns undefined, the queue is used). */
  readonly respond?: (request: RecordedRequest, index: number) => FakeAnthropicReply | undefined;
  /** Characters per text/JSON delta (default 7, so JSON splits mid-token). */
  readonly chunkChars?: number;
}

const ERROR_TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  404: 'not_found_error',
  429: 'rate_limit_error',
  500: 'api_error',
  529: 'overloaded_error',
};

export async function startFakeAnthropic(options: FakeAnthropicOptions = {}): Promise<FakeAnthropic> {
  const queue: FakeAnthropicReply[] = [...(options.replies ?? [])];
  const requests: RecordedRequest[] = [];
  const chunk = options.chunkChars ?? 7;
  let dropped = 0;
  let sequence = 0;
  const server = createServer(async (req, res) => {
    if (req.method !== 'POST' || !req.url?.startsWith('/v1/messages')) {
      return apiError(res, 404, `no route ${req.method} ${req.url}`);
    }
    if (!req.headers['x-api-key'] && !req.headers.authorization) {
      return apiError(res, 401, 'missing x-api-key header');
    }
    const body = await readJson(req);
    const recorded: RecordedRequest = { at: Date.now(), headers: req.headers, body };
    requests.push(recorded);
    const index = requests.length - 1;
    const reply = options.respond?.(recorded, index) ?? queue.shift();
    if (!reply) return apiError(res, 400, `fake-anthropic: no scripted reply for request ${index + 1}`);
    const id = ++sequence;
    if (reply.kind === 'status') {
      const headers = { 'retry-after-ms': String(reply.retry_after_ms ?? 1) };
      return apiError(res, reply.status, reply.message ?? `scripted ${reply.status}`, headers);
    }
    if (reply.kind === 'hold' || reply.kind === 'stream_error') {
      const send = startStream(res);
      await send('message_start', { message: startMessage(id, recorded.body.model, {}) });
      if (reply.text) {
        await send('content_block_start', { index: 0, content_block: { type: 'text', text: '' } });
        await send('content_block_delta', { index: 0, delta: { type: 'text_delta', text: reply.text } });
      }
      if (reply.kind === 'stream_error') {
        await send('error', { error: { type: reply.error_type, message: `scripted ${reply.error_type}` } });
        res.end();
        return;
      }
      res.on('close', () => dropped++);
      return;
    }
    type Block =
      | { type: 'text'; text: string }
      | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> };
    const content: Block[] = [
      ...(reply.text ? [{ type: 'text' as const, text: reply.text }] : []),
      ...(reply.tool_uses ?? []).map((use, i) => ({
        type: 'tool_use' as const,
        id: use.id ?? `toolu_${id}_${i}`,
        name: use.name,
        input: use.input,
      })),
    ];
    const stop_reason = reply.stop_reason ?? (reply.tool_uses?.length ? 'tool_use' : 'end_turn');
    const usage = { input_tokens: 10, output_tokens: 5, ...reply.usage };
    if (recorded.body.stream !== true) {
      const message = { ...startMessage(id, recorded.body.model, usage), content, stop_reason };
      return sendJson(res, 200, message);
    }
    const send = startStream(res);
    await send('message_start', { message: startMessage(id, recorded.body.model, { ...usage, output_tokens: 1 }) });
    await send('ping', {});
    for (const [index, block] of content.entries()) {
      if (block.type === 'text') {
        await send('content_block_start', { index, content_block: { type: 'text', text: '' } });
        for (const text of pieces(block.text, chunk)) {
          await send('content_block_delta', { index, delta: { type: 'text_delta', text } });
        }
      } else {
        const start = { type: 'tool_use', id: block.id, name: block.name, input: {} };
        await send('content_block_start', { index, content_block: start });
        for (const partial_json of pieces(JSON.stringify(block.input), chunk)) {
          await send('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json } });
        }
      }
      await send('content_block_stop', { index });
    }
    await send('message_delta', {
      delta: { stop_reason, stop_sequence: null },
      usage: { output_tokens: usage.output_tokens },
    });
    await send('message_stop', {});
    res.end();
  });
  const { origin, close } = await listen(server);
  return {
    baseURL: origin,
    requests,
    enqueue: (...replies) => queue.push(...replies),
    dropped: () => dropped,
    waitForRequests: (n, ms) => until(() => requests.length >= n, ms, `${n} requests`),
    close,
  };
}

function startMessage(id: number, model: unknown, usage: FakeUsage) {
  return {
    id: `msg_${id}`,
    type: 'message',
    role: 'assistant',
    model,
    content: [],
    stop_reason: null,
    stop_sequence: null,
    usage: {
      input_tokens: usage.input_tokens ?? 0,
      output_tokens: usage.output_tokens ?? 0,
      cache_creation_input_tokens: usage.cache_creation_input_tokens ?? 0,
      cache_read_input_tokens: usage.cache_read_input_tokens ?? 0,
    },
  };
}

function startStream(res: ServerResponse) {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  return async (type: string, data: Record<string, unknown>) => {
    if (res.destroyed) return;
    res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
    // Each event leaves in its own chunk, as a real stream's do.
    await new Promise((resolve) => setImmediate(resolve));
  };
}

function apiError(res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}) {
  const type = ERROR_TYPES[status] ?? 'api_error';
  sendJson(res, status, { type: 'error', error: { type, message } }, headers);
}

/**
 * @module testing/fake-openai
 * A local server speaking OpenAI Chat Completions (`POST /v1/chat/completions`) with
 * streaming: `data: {chat.completion.chunk}` lines (a role chunk, content pieces,
 * `tool_calls` deltas by index with the id and name first and the arguments JSON split
 * in fragments, a chunk with `finish_reason`, a usage chunk with empty `choices`), then
 * `data: [DONE]`. Replies can also be an HTTP status (with `retry-after-ms`) or `hold`
 * (stream opened, then silent until the client drops it). Requests are recorded.
 */
import { createServer } from 'node:http';
import { listen, pieces, readJson, sendJson, until } from './_http.js';
import type { RecordedRequest } from './fake-anthropic.js';

export type FakeOpenAIReply =
  | {
      readonly kind?: 'message';
      readonly text?: string;
      readonly tool_calls?: ReadonlyArray<{ readonly id?: string; readonly name: string; readonly arguments: unknown }>;
      readonly finish_reason?: string;
      readonly usage?: { prompt_tokens: number; completion_tokens: number; cached_tokens?: number };
    }
  | { readonly kind: 'status'; readonly status: number; readonly retry_after_ms?: number }
  | { readonly kind: 'hold'; readonly text?: string };

export interface FakeOpenAI {
  readonly baseURL: string;
  readonly requests: RecordedRequest[];
  enqueue(...replies: FakeOpenAIReply[]): void;
  dropped(): number;
  waitForRequests(n: number, ms?: number): Promise<void>;
  close(): Promise<void>;
}

export async function startFakeOpenAI(options: { replies?: readonly FakeOpenAIReply[]; chunkChars?: number } = {}) {
  const queue: FakeOpenAIReply[] = [...(options.replies ?? [])];
  const requests: RecordedRequest[] = [];
  const size = options.chunkChars ?? 5;
  let dropped = 0;
  let sequence = 0;
  const server = createServer(async (req, res) => {
    if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
      return sendJson(res, 404, { error: { message: `no route ${req.url}` } });
    }
    const body = await readJson(req);
    const recorded: RecordedRequest = { at: Date.now(), headers: req.headers, body };
    requests.push(recorded);
    const reply = queue.shift();
    if (!reply) return sendJson(res, 400, { error: { message: 'fake-openai: no scripted reply' } });
    if (reply.kind === 'status') {
      const headers = { 'retry-after-ms': String(reply.retry_after_ms ?? 1) };
      return sendJson(res, reply.status, { error: { message: `scripted ${reply.status}` } }, headers);
    }
    const id = `chatcmpl-${++sequence}`;
    const model = recorded.body.model;
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    const send = async (choices: unknown[], extra: Record<string, unknown> = {}) => {
      if (res.destroyed) return;
      res.write(
        `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created: 0, model, choices, ...extra })}\n\n`,
      );
      await new Promise((resolve) => setImmediate(resolve));
    };
    await send([{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }]);
    if (reply.kind === 'hold') {
      if (reply.text) await send([{ index: 0, delta: { content: reply.text }, finish_reason: null }]);
      res.on('close', () => dropped++);
      return;
    }
    for (const content of reply.text ? pieces(reply.text, size) : []) {
      await send([{ index: 0, delta: { content }, finish_reason: null }]);
    }
    for (const [index, call] of (reply.tool_calls ?? []).entries()) {
      const head = {
        index,
        id: call.id ?? `call_${sequence}_${index}`,
        type: 'function',
        function: { name: call.name, arguments: '' },
      };
      await send([{ index: 0, delta: { tool_calls: [head] }, finish_reason: null }]);
      const json = typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments);
      for (const fragment of pieces(json, size)) {
        await send([
          { index: 0, delta: { tool_calls: [{ index, function: { arguments: fragment } }] }, finish_reason: null },
        ]);
      }
    }
    const finish_reason = reply.finish_reason ?? (reply.tool_calls?.length ? 'tool_calls' : 'stop');
    await send([{ index: 0, delta: {}, finish_reason }]);
    const usage = reply.usage ?? { prompt_tokens: 10, completion_tokens: 5 };
    await send([], {
      usage: {
        prompt_tokens: usage.prompt_tokens,
        completion_tokens: usage.completion_tokens,
        total_tokens: usage.prompt_tokens + usage.completion_tokens,
        prompt_tokens_details: { cached_tokens: usage.cached_tokens ?? 0 },
      },
    });
    res.write('data: [DONE]\n\n');
    res.end();
  });
  const { origin, close } = await listen(server);
  const fake: FakeOpenAI = {
    baseURL: `${origin}/v1`,
    requests,
    enqueue: (...replies) => queue.push(...replies),
    dropped: () => dropped,
    waitForRequests: (n, ms) => until(() => requests.length >= n, ms, `${n} requests`),
    close,
  };
  return fake;
}

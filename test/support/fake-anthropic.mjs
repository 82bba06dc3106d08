/**
 * A local server speaking the Anthropic Messages API (`POST /v1/messages`) on
 * 127.0.0.1, answering from a scripted model (see _scripted-model.mjs), so the real
 * @anthropic-ai/sdk runs in tests with no key and no internet.
 *
 * Non-streaming requests get a `message` object. With `stream: true` the answer is
 * server-sent events as the API sends them: message_start, then per content block
 * content_block_start, content_block_delta (text_delta pieces, or input_json_delta
 * pieces of the tool input's JSON) and content_block_stop, then message_delta (the
 * stop_reason and output usage) and message_stop; a ping after message_start.
 * Requests without an API key get 401, malformed ones 400, both in the API's error
 * shape. Every request is kept in `requests` for assertions.
 */
import { createServer } from 'node:http';
import { listen, nextTurn, readJson, roughTokens, ScriptError, sendJson } from './_scripted-model.mjs';

/**
 * @param {{ script: Array<{ system: string, turns: unknown[] }>, chunkChars?: number }} options
 * @returns {Promise<{ baseURL: string, requests: Array<{ headers: object, body: any }>, close(): Promise<void> }>}
 */
export async function startFakeAnthropic({ script, chunkChars = 16 }) {
  const requests = [];
  let sequence = 0;
  const server = createServer(async (req, res) => {
    try {
      if (req.method !== 'POST' || req.url !== '/v1/messages') {
        return apiError(res, 404, 'not_found_error', `no route ${req.method} ${req.url}`);
      }
      if (!req.headers['x-api-key'] && !req.headers.authorization) {
        return apiError(res, 401, 'authentication_error', 'missing x-api-key header');
      }
      const body = await readJson(req);
      requests.push({ headers: req.headers, body });
      const problem = invalid(body);
      if (problem) return apiError(res, 400, 'invalid_request_error', problem);
      const turn = nextTurn(script, {
        system: systemText(body.system),
        assistantTurns: body.messages.filter((m) => m.role === 'assistant').length,
        toolResults: lastToolResults(body.messages),
      });
      const message = toMessage(turn, body, ++sequence);
      if (body.stream === true) return await streamMessage(res, message, chunkChars);
      sendJson(res, 200, message);
    } catch (error) {
      if (error instanceof ScriptError || error instanceof SyntaxError) {
        return apiError(res, 400, 'invalid_request_error', error.message);
      }
      apiError(res, 500, 'api_error', String(error));
    }
  });
  const { origin, close } = await listen(server);
  return { baseURL: origin, requests, close };
}

function invalid(body) {
  if (typeof body.model !== 'string') return 'model: required';
  if (!Number.isInteger(body.max_tokens)) return 'max_tokens: required';
  if (!Array.isArray(body.messages) || body.messages.length === 0) return 'messages: required';
  if (body.messages[0].role !== 'user') return 'messages: the first message must use the "user" role';
  return null;
}

function systemText(system) {
  if (system === undefined) return '';
  return typeof system === 'string' ? system : system.map((block) => block.text ?? '').join('\n');
}

/** The texts of the tool_result blocks of the last user message. */
function lastToolResults(messages) {
  const last = messages.at(-1);
  if (!Array.isArray(last?.content)) return [];
  return last.content
    .filter((block) => block.type === 'tool_result')
    .map((block) =>
      typeof block.content === 'string' ? block.content : block.content.map((c) => c.text ?? '').join(''),
    );
}

function toMessage(turn, body, sequence) {
  const content = [
    ...(turn.text ? [{ type: 'text', text: turn.text }] : []),
    ...turn.toolCalls.map((call, i) => ({
      type: 'tool_use',
      id: `toolu_${sequence}_${i}`,
      name: call.name,
      input: call.input,
    })),
  ];
  return {
    id: `msg_${sequence}`,
    type: 'message',
    role: 'assistant',
    model: body.model,
    content,
    stop_reason: turn.toolCalls.length > 0 ? 'tool_use' : 'end_turn',
    stop_sequence: null,
    usage: { input_tokens: roughTokens(body.messages), output_tokens: roughTokens(content) },
  };
}

async function streamMessage(res, message, chunkChars) {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  const send = async (type, data) => {
    res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
    // Let each event leave in its own chunk, as a real stream's do.
    await new Promise((resolve) => setImmediate(resolve));
  };
  const start = { ...message, content: [], stop_reason: null, usage: { ...message.usage, output_tokens: 1 } };
  await send('message_start', { message: start });
  await send('ping', {});
  for (const [index, block] of message.content.entries()) {
    if (block.type === 'text') {
      await send('content_block_start', { index, content_block: { type: 'text', text: '' } });
      for (const text of pieces(block.text, chunkChars)) {
        await send('content_block_delta', { index, delta: { type: 'text_delta', text } });
      }
    } else {
      await send('content_block_start', {
        index,
        content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} },
      });
      for (const partial_json of pieces(JSON.stringify(block.input), chunkChars)) {
        await send('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json } });
      }
    }
    await send('content_block_stop', { index });
  }
  await send('message_delta', {
    delta: { stop_reason: message.stop_reason, stop_sequence: null },
    usage: { output_tokens: message.usage.output_tokens },
  });
  await send('message_stop', {});
  res.end();
}

function pieces(text, size) {
  const out = [];
  for (let at = 0; at < text.length; at += size) out.push(text.slice(at, at + size));
  return out;
}

function apiError(res, status, type, message) {
  sendJson(res, status, { type: 'error', error: { type, message } });
}

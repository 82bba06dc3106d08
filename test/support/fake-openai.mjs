/**
 * A local server speaking the OpenAI Chat Completions API (`POST /v1/chat/completions`,
 * function calling) on 127.0.0.1, answering from a scripted model (see
 * _scripted-model.mjs): a turn's tool calls come back as `tool_calls` with JSON-text
 * `arguments` and finish_reason "tool_calls", a final turn as content with "stop".
 * Requests without a bearer token get 401. Every request is kept in `requests`.
 */
import { createServer } from 'node:http';
import { listen, nextTurn, readJson, roughTokens, ScriptError, sendJson } from './_scripted-model.mjs';

/**
 * @param {{ script: Array<{ system: string, turns: unknown[] }> }} options
 * @returns {Promise<{ baseURL: string, requests: Array<{ headers: object, body: any }>, close(): Promise<void> }>}
 */
export async function startFakeOpenAI({ script }) {
  const requests = [];
  let sequence = 0;
  const server = createServer(async (req, res) => {
    try {
      if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
        return apiError(res, 404, `no route ${req.method} ${req.url}`);
      }
      if (!/^Bearer \S+/.test(req.headers.authorization ?? '')) return apiError(res, 401, 'missing bearer token');
      const body = await readJson(req);
      requests.push({ headers: req.headers, body });
      if (typeof body.model !== 'string' || !Array.isArray(body.messages)) {
        return apiError(res, 400, 'model and messages are required');
      }
      const turn = nextTurn(script, {
        system: body.messages
          .filter((m) => m.role === 'system')
          .map((m) => m.content)
          .join('\n'),
        assistantTurns: body.messages.filter((m) => m.role === 'assistant').length,
        toolResults: trailingToolMessages(body.messages),
      });
      sequence++;
      const toolCalls = turn.toolCalls.map((call, i) => ({
        id: `call_${sequence}_${i}`,
        type: 'function',
        function: { name: call.name, arguments: JSON.stringify(call.input) },
      }));
      const message = {
        role: 'assistant',
        content: turn.text || null,
        ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
      };
      sendJson(res, 200, {
        id: `chatcmpl-${sequence}`,
        object: 'chat.completion',
        created: 0,
        model: body.model,
        choices: [{ index: 0, message, finish_reason: toolCalls.length > 0 ? 'tool_calls' : 'stop' }],
        usage: { prompt_tokens: roughTokens(body.messages), completion_tokens: roughTokens(message) },
      });
    } catch (error) {
      if (error instanceof ScriptError || error instanceof SyntaxError) return apiError(res, 400, error.message);
      apiError(res, 500, String(error));
    }
  });
  const { origin, close } = await listen(server);
  return { baseURL: `${origin}/v1`, requests, close };
}

/** The contents of the `tool` messages the conversation ends with. */
function trailingToolMessages(messages) {
  const out = [];
  for (let i = messages.length - 1; i >= 0 && messages[i].role === 'tool'; i--) out.unshift(messages[i].content);
  return out;
}

function apiError(res, status, message) {
  sendJson(res, status, {
    error: { message, type: status === 401 ? 'authentication_error' : 'invalid_request_error' },
  });
}

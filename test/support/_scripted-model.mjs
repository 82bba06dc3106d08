/**
 * The "model" behind the local fake provider servers: a script of conversations, told
 * apart by their system prompt. A conversation's next turn is the one after as many
 * assistant turns as the request's history holds, so the servers keep no state and
 * several conversations can run at once.
 *
 * A script is `[{ system, turns }]`: `system` is a piece of text the system prompt
 * contains; a turn is `{ text?, tool_calls?: [{ name, input }] }`, or a function of
 * `{ toolResults }` (the texts of the tool results the request ends with) returning one.
 */

export class ScriptError extends Error {}

/** The turn a scripted model answers a request with. */
export function nextTurn(script, { system, assistantTurns, toolResults }) {
  const conversation = script.find((c) => system.includes(c.system));
  if (!conversation) {
    throw new ScriptError(`no scripted conversation for the system prompt ${JSON.stringify(system.slice(0, 80))}`);
  }
  const turn = conversation.turns[assistantTurns];
  if (!turn) throw new ScriptError(`the conversation "${conversation.system}" has no turn ${assistantTurns + 1}`);
  const resolved = typeof turn === 'function' ? turn({ toolResults }) : turn;
  return { text: resolved.text ?? '', toolCalls: resolved.tool_calls ?? [] };
}

/** Reads a JSON request body. */
export async function readJson(req) {
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  return JSON.parse(Buffer.concat(chunks).toString('utf8'));
}

/** Starts an HTTP server on 127.0.0.1 (a free port) and answers its address and a closer. */
export async function listen(server) {
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address();
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
}

export function sendJson(res, status, body) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

/** A rough token count, so usage figures move with the size of what was sent. */
export function roughTokens(value) {
  return Math.max(1, Math.ceil(JSON.stringify(value ?? '').length / 4));
}

/**
 * @module _envelope
 * Finds seed 000's `tool_calls` envelope in a model's text: a JSON object
 * `{ "tool_calls": [ { "name": "...", "args": { ... } } ] }`, standalone or inside a
 * fenced block, with prose around it, possibly several. This is the small parse step a
 * provider needs to surface such calls as tool_use events for models without native
 * tool calling; colony's full parser (with error reports per block) is the seed-000
 * seed-000 `Orchestrator`'s, in @swarm/coordination. Never throws: what does not parse is prose.
 */

export interface EnvelopeCall {
  readonly name: string;
  readonly input: Record<string, unknown>;
}

/** Replies longer than this are scanned only up to it. */
const MAX_SCAN = 1_000_000;
const OPENER = /\{\s*"tool_calls"\s*:/g;

export function findEnvelopeCalls(text: string): EnvelopeCall[] {
  const scanned = text.length > MAX_SCAN ? text.slice(0, MAX_SCAN) : text;
  const calls: EnvelopeCall[] = [];
  let from = 0;
  for (const match of scanned.matchAll(OPENER)) {
    if (match.index < from) continue;
    const end = matchBrace(scanned, match.index);
    if (end < 0) continue;
    let value: unknown;
    try {
      value = JSON.parse(scanned.slice(match.index, end + 1));
    } catch {
      continue;
    }
    from = end + 1;
    const list = (value as { tool_calls?: unknown }).tool_calls;
    if (!Array.isArray(list)) continue;
    for (const call of list) {
      const { name, args } = (call ?? {}) as { name?: unknown; args?: unknown };
      if (typeof name !== 'string' || name === '') continue;
      const input = args && typeof args === 'object' && !Array.isArray(args) ? (args as Record<string, unknown>) : {};
      calls.push({ name, input });
    }
  }
  return calls;
}

/** The index of the `}` closing the `{` at `start`, strings and escapes respected; -1 if none. */
function matchBrace(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{') depth++;
    else if (c === '}' && --depth === 0) return i;
  }
  return -1;
}

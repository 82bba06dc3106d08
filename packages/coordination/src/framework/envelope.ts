/**
 * @module framework/envelope
 * The seed-000 `tool_calls` envelope in a model's free-text reply: a JSON object
 * `{ "tool_calls": [ { "name", "args" } ] }`, standalone or in a fenced block, with
 * prose around it, possibly several times. Parsing never throws: broken JSON and
 * malformed calls come back as errors beside the calls that did parse, so one bad
 * block cannot stop a turn.
 */
import { fromEnvelope, isEnvelope, tryParse } from './_envelope-calls';
import type { EnvelopeError, Found, ToolCallRequest, Unlocated } from './_envelope-types';
import { blank, fences } from './_fences';

export type { EnvelopeError, ToolCallRequest } from './_envelope-types';

export interface ParsedReply {
  /** Every call of every envelope, in reply order. */
  readonly calls: ToolCallRequest[];
  readonly errors: EnvelopeError[];
  /** Envelopes found. */
  readonly envelopes: number;
}

/** Replies longer than this are scanned only up to it. */
export const MAX_REPLY_CHARS = 1_000_000;
/**
 * Characters the brace matcher may visit per reply. Each `{` near a mention of
 * tool_calls is matched afresh, so a pathological reply (thousands of unclosed braces)
 * would cost quadratic time; past this budget the scan stops and says so.
 */
const SCAN_BUDGET = 20 * MAX_REPLY_CHARS;
/** What a failed JSON.parse costs against the budget, in characters' worth of matching. */
const FAILED_PARSE_COST = 5_000;
/** Calls run from one reply; more are reported, not run. */
export const MAX_CALLS_PER_REPLY = 100;
/** Errors reported for one reply; the transcript needs the first few, not thousands. */
const MAX_ERRORS = 20;
const EXCERPT_CHARS = 120;
const JSON_FENCE_LANGS = new Set(['', 'json', 'jsonc', 'json5']);

export function parseToolCalls(reply: string): ParsedReply {
  const text = reply.length > MAX_REPLY_CHARS ? reply.slice(0, MAX_REPLY_CHARS) : reply;
  const scanner = new Scanner(text);
  // Fenced blocks first; the prose is what is left with them blanked out (offsets kept).
  const prose: string[] = [];
  let last = 0;
  for (const fence of fences(text)) {
    prose.push(text.slice(last, fence.start), blank(text.slice(fence.start, fence.end)));
    last = fence.end;
    if (JSON_FENCE_LANGS.has(fence.lang)) scanner.scan(text, fence.bodyStart, fence.bodyEnd);
  }
  prose.push(text.slice(last));
  const rest = prose.join('');
  scanner.scan(rest, 0, rest.length);
  const found = scanner.found.sort((a, b) => a.at - b.at);
  const calls = found.flatMap((f) => f.calls);
  const errors = found
    .flatMap((f) => f.errors.map((e) => ({ e, at: f.at })))
    .slice(0, MAX_ERRORS)
    .map(({ e, at }) => scanner.locate(e, at));
  if (calls.length > MAX_CALLS_PER_REPLY) {
    const dropped = calls.splice(MAX_CALLS_PER_REPLY);
    errors.push({
      error: 'invalid_envelope',
      message: `${dropped.length} calls past the first ${MAX_CALLS_PER_REPLY} were not run`,
      line: 1,
      excerpt: dropped[0]!.name,
    });
  }
  return {
    calls,
    errors,
    envelopes: found.filter((f) => f.envelope).length,
  };
}

class Scanner {
  readonly found: Found[] = [];
  readonly #text: string;
  #budget = SCAN_BUDGET;
  #lineStarts: number[] | undefined;

  constructor(text: string) {
    this.#text = text;
  }

  /**
   * Collects the envelopes among the JSON objects of text[from, to). An object that does
   * not parse is reported only when it mentions tool_calls, sits inside no other broken
   * object, and holds no envelope that does parse.
   */
  scan(text: string, from: number, to: number): void {
    const envelopes: Found[] = [];
    const broken: Array<{ start: number; end: number; message: string }> = [];
    let i = text.indexOf('{', from);
    while (i >= 0 && i < to) {
      const end = this.#budget > 0 ? this.#matchingBrace(text, i, to) : OUT_OF_BUDGET;
      if (end === OUT_OF_BUDGET) {
        broken.push({ start: i, end: to, message: 'gave up: too many unbalanced braces to scan the rest' });
        break;
      }
      const candidate = text.slice(i, end < 0 ? to : end + 1);
      if (!candidate.includes('tool_calls')) {
        // Nothing inside can be an envelope: skip the whole object.
        if (end < 0) break;
        i = text.indexOf('{', end + 1);
        continue;
      }
      const parsed = tryParse(end < 0 ? undefined : candidate);
      if (parsed.ok && isEnvelope(parsed.value)) {
        envelopes.push(fromEnvelope(i, parsed.value));
        i = text.indexOf('{', end + 1);
        continue;
      }
      if (!parsed.ok) {
        broken.push({ start: i, end: end < 0 ? to : end + 1, message: parsed.message });
        this.#budget -= FAILED_PARSE_COST;
      }
      i = text.indexOf('{', i + 1);
    }
    this.found.push(...envelopes);
    // Both lists are in start order: one sweep drops a broken object inside an earlier
    // one or around an envelope that parsed.
    let maxEnd = -1;
    let k = 0;
    for (const b of broken) {
      const inside = maxEnd >= b.end;
      maxEnd = Math.max(maxEnd, b.end);
      while (k < envelopes.length && envelopes[k]!.at < b.start) k++;
      if (inside || (k < envelopes.length && envelopes[k]!.at < b.end)) continue;
      this.found.push({
        at: b.start,
        calls: [],
        errors: [{ error: 'parse_error', message: b.message }],
        envelope: false,
      });
    }
  }

  /** An error with its line and an excerpt of the reply where it starts. */
  locate(error: Unlocated, at: number): EnvelopeError {
    this.#lineStarts ??= lineStarts(this.#text);
    const starts = this.#lineStarts;
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= at) lo = mid;
      else hi = mid - 1;
    }
    return { ...error, line: lo + 1, excerpt: this.#text.slice(at, at + EXCERPT_CHARS).replace(/\s+/g, ' ') };
  }

  /** Index of the `}` closing the `{` at `start`, honouring JSON strings; -1 when unclosed. */
  #matchingBrace(text: string, start: number, to: number): number {
    let depth = 0;
    let inString = false;
    for (let i = start; i < to; i++) {
      if (--this.#budget < 0) return OUT_OF_BUDGET;
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
}

const OUT_OF_BUDGET = -2;

function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}

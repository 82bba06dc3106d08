/**
 * @module framework/envelope-calls
 * From a parsed `{ "tool_calls": [...] }` object to calls: the accepted call shapes
 * (`{ name, args }`, `arguments` as object or JSON text, `{ function: { name, arguments } }`)
 * and the errors for everything else.
 */
import type { Found, ToolCallRequest, Unlocated } from './_envelope-types';

type Parsed = { ok: true; value: unknown } | { ok: false; message: string };

export function tryParse(candidate: string | undefined): Parsed {
  if (candidate === undefined) return { ok: false, message: 'unterminated JSON object (missing "}")' };
  try {
    return { ok: true, value: JSON.parse(candidate) };
  } catch (error) {
    return { ok: false, message: `invalid JSON: ${(error as Error).message}` };
  }
}

export function isEnvelope(value: unknown): value is { tool_calls: unknown } {
  return value !== null && typeof value === 'object' && !Array.isArray(value) && 'tool_calls' in value;
}

export function fromEnvelope(at: number, envelope: { tool_calls: unknown }): Found {
  if (!Array.isArray(envelope.tool_calls)) {
    return {
      at,
      calls: [],
      errors: [{ error: 'invalid_envelope', message: 'tool_calls must be an array' }],
      envelope: true,
    };
  }
  const calls: ToolCallRequest[] = [];
  const errors: Unlocated[] = [];
  envelope.tool_calls.forEach((raw, index) => {
    const call = toCall(raw);
    if (typeof call === 'string') errors.push({ error: 'invalid_call', message: `tool_calls[${index}]: ${call}` });
    else calls.push(call);
  });
  return { at, calls, errors, envelope: true };
}

/** `{ name, args }`; also `arguments` (object or JSON text) and `{ function: { name, arguments } }`. */
function toCall(raw: unknown): ToolCallRequest | string {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return 'a call must be an object';
  const record = raw as Record<string, unknown>;
  const fn = record.function;
  const source =
    fn !== null && typeof fn === 'object' && !Array.isArray(fn) && record.name === undefined
      ? (fn as Record<string, unknown>)
      : record;
  const name = source.name;
  if (typeof name !== 'string' || name.length === 0) return 'missing "name"';
  let args = source.args ?? source.arguments ?? {};
  if (typeof args === 'string') {
    try {
      args = JSON.parse(args);
    } catch (error) {
      return `${name}: arguments are not valid JSON: ${(error as Error).message}`;
    }
  }
  if (args === null || typeof args !== 'object' || Array.isArray(args)) return `${name}: "args" must be an object`;
  return { name, args: args as Record<string, unknown> };
}

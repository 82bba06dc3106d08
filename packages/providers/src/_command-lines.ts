/**
 * @module _command-lines
 * Turns one JSON line of an agent CLI into provider events, per line format:
 *  - `claude`: `claude -p --output-format stream-json --verbose` (system init, assistant
 *    messages with text and tool_use blocks, user messages with tool results, a final
 *    `result` with usage and `total_cost_usd`);
 *  - `codex`: `codex exec --json` (thread/turn events, `item.completed` with
 *    agent_message / command_execution / mcp_tool_call / file_change items,
 *    `turn.completed` with usage, `turn.failed` and `error`);
 *  - `jsonl`: colony's own contract for any CLI, one object per line:
 *    `{"type":"text","text"}`, `{"type":"tool_use","id"?,"name","input"}`,
 *    `{"type":"usage","input_tokens","output_tokens",...}`,
 *    `{"type":"result","status":"success"|"error","message"?,"cost_usd"?}`.
 * Lines that are not JSON, and unknown types, are ignored (CLIs log freely).
 */
import type { Usage } from './types.js';

export type LineFormat = 'claude' | 'codex' | 'jsonl';

export type LineOutcome =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'tool_use'; readonly id: string; readonly name: string; readonly input: Record<string, unknown> }
  | { readonly kind: 'usage'; readonly usage: Partial<Usage>; readonly add: boolean }
  | { readonly kind: 'result'; readonly ok: boolean; readonly message?: string; readonly cost_usd?: number };

type Json = Record<string, unknown>;

export function parseLine(format: LineFormat, line: string, sequence: number): LineOutcome[] {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return [];
  }
  if (!value || typeof value !== 'object') return [];
  const json = value as Json;
  if (format === 'claude') return claudeLine(json);
  if (format === 'codex') return codexLine(json, sequence);
  return jsonlLine(json, sequence);
}

function claudeLine(json: Json): LineOutcome[] {
  if (json.type === 'assistant') {
    const content = ((json.message as Json | undefined)?.content ?? []) as Json[];
    return content.flatMap((block): LineOutcome[] => {
      if (block.type === 'text' && typeof block.text === 'string') return [{ kind: 'text', text: block.text }];
      if (block.type === 'tool_use') {
        return [{ kind: 'tool_use', id: String(block.id), name: String(block.name), input: asObject(block.input) }];
      }
      return [];
    });
  }
  if (json.type === 'result') {
    const out: LineOutcome[] = [];
    if (json.usage) out.push({ kind: 'usage', usage: usageOf(json.usage as Json), add: false });
    const ok = json.is_error !== true && (json.subtype === undefined || json.subtype === 'success');
    const cost = typeof json.total_cost_usd === 'number' ? { cost_usd: json.total_cost_usd } : {};
    const message = typeof json.result === 'string' && !ok ? json.result : String(json.subtype ?? '');
    out.push({ kind: 'result', ok, ...(ok ? {} : { message }), ...cost });
    return out;
  }
  return [];
}

function codexLine(json: Json, sequence: number): LineOutcome[] {
  const item = json.item as Json | undefined;
  if (json.type === 'item.completed' && item) {
    if (item.type === 'agent_message' && typeof item.text === 'string') return [{ kind: 'text', text: item.text }];
    const id = String(item.id ?? `codex_${sequence}`);
    if (item.type === 'command_execution') {
      return [{ kind: 'tool_use', id, name: 'bash', input: { command: item.command, exit_code: item.exit_code } }];
    }
    if (item.type === 'mcp_tool_call') {
      return [{ kind: 'tool_use', id, name: `${item.server}__${item.tool}`, input: asObject(item.arguments) }];
    }
    if (item.type === 'file_change')
      return [{ kind: 'tool_use', id, name: 'file_change', input: { changes: item.changes } }];
    return [];
  }
  if (json.type === 'turn.completed' && json.usage) {
    const u = json.usage as Json;
    const cached = num(u.cached_input_tokens);
    const usage = {
      input_tokens: Math.max(0, num(u.input_tokens) - cached),
      output_tokens: num(u.output_tokens),
      cache_read_input_tokens: cached,
      cache_creation_input_tokens: num(u.cache_write_input_tokens),
    };
    return [{ kind: 'usage', usage, add: true }];
  }
  if (json.type === 'turn.failed') {
    return [{ kind: 'result', ok: false, message: String((json.error as Json | undefined)?.message ?? 'turn failed') }];
  }
  if (json.type === 'error') return [{ kind: 'result', ok: false, message: String(json.message ?? 'error') }];
  return [];
}

function jsonlLine(json: Json, sequence: number): LineOutcome[] {
  switch (json.type) {
    case 'text':
      return typeof json.text === 'string' ? [{ kind: 'text', text: json.text }] : [];
    case 'tool_use':
      return [
        {
          kind: 'tool_use',
          id: String(json.id ?? `cmd_${sequence}`),
          name: String(json.name),
          input: asObject(json.input),
        },
      ];
    case 'usage':
      return [{ kind: 'usage', usage: usageOf(json), add: true }];
    case 'result': {
      const cost = typeof json.cost_usd === 'number' ? { cost_usd: json.cost_usd } : {};
      const ok = json.status === 'success';
      return [{ kind: 'result', ok, ...(typeof json.message === 'string' ? { message: json.message } : {}), ...cost }];
    }
    default:
      return [];
  }
}

function usageOf(json: Json): Partial<Usage> {
  return {
    input_tokens: num(json.input_tokens),
    output_tokens: num(json.output_tokens),
    cache_creation_input_tokens: num(json.cache_creation_input_tokens),
    cache_read_input_tokens: num(json.cache_read_input_tokens),
  };
}

function num(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : 0;
}

function asObject(value: unknown): Record<string, unknown> {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/**
 * @module _openai-wire
 * Translation between the provider vocabulary (Anthropic-shaped content blocks) and
 * OpenAI Chat Completions messages. With native tools, tool_use blocks become an
 * assistant's `tool_calls` and tool_result blocks `tool` messages. Without them (the
 * envelope mode), the assistant's text already holds its envelope and tool results go
 * back as user text.
 */
import type { ChatMessage, ContentBlock, StopReason, ToolSchema, TurnRequest, Usage } from './types.js';

export type WireMessage =
  | { role: 'system' | 'user'; content: string }
  | { role: 'assistant'; content: string | null; tool_calls?: WireToolCall[] }
  | { role: 'tool'; tool_call_id: string; content: string };

export interface WireToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

export function toWireMessages(request: TurnRequest, nativeTools: boolean): WireMessage[] {
  const out: WireMessage[] = [];
  if (request.system) out.push({ role: 'system', content: request.system });
  for (const message of request.messages) out.push(...toWire(message, nativeTools));
  return out;
}

function toWire(message: ChatMessage, nativeTools: boolean): WireMessage[] {
  const blocks: readonly ContentBlock[] =
    typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content;
  const text = blocks
    .flatMap((b) => (b.type === 'text' ? [b.text] : []))
    .join('\n')
    .trim();
  if (message.role === 'assistant') {
    const uses = nativeTools ? blocks.filter((b) => b.type === 'tool_use') : [];
    const tool_calls = uses.map((b) => ({
      id: b.id,
      type: 'function' as const,
      function: { name: b.name, arguments: JSON.stringify(b.input) },
    }));
    return [{ role: 'assistant', content: text || null, ...(tool_calls.length ? { tool_calls } : {}) }];
  }
  const out: WireMessage[] = [];
  const asText: string[] = [];
  for (const block of blocks) {
    if (block.type !== 'tool_result') continue;
    if (nativeTools) out.push({ role: 'tool', tool_call_id: block.tool_use_id, content: block.content });
    else asText.push(`Tool result ${block.tool_use_id}${block.is_error ? ' (error)' : ''}:\n${block.content}`);
  }
  if (text) asText.push(text);
  if (asText.length) out.push({ role: 'user', content: asText.join('\n\n') });
  return out;
}

export function toWireTools(tools: readonly ToolSchema[]) {
  return tools.map((t) => ({
    type: 'function' as const,
    function: { name: t.name, ...(t.description ? { description: t.description } : {}), parameters: t.input_schema },
  }));
}

export function toStopReason(finish: string | null | undefined, hasToolCalls: boolean): StopReason {
  if (finish === 'tool_calls' || finish === 'function_call' || (hasToolCalls && finish === 'stop')) return 'tool_use';
  if (finish === 'stop') return 'end_turn';
  if (finish === 'length') return 'max_tokens';
  if (finish === 'content_filter') return 'refusal';
  return 'other';
}

export interface WireUsage {
  prompt_tokens?: number;
  completion_tokens?: number;
  prompt_tokens_details?: { cached_tokens?: number } | null;
}

/** OpenAI counts cached prompt tokens inside prompt_tokens; ours keeps them apart. */
export function toUsage(wire: WireUsage): Usage {
  const cached = wire.prompt_tokens_details?.cached_tokens ?? 0;
  return {
    input_tokens: Math.max(0, (wire.prompt_tokens ?? 0) - cached),
    output_tokens: wire.completion_tokens ?? 0,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: cached,
  };
}

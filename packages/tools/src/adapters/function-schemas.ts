/**
 * @module adapters/function-schemas
 * The registry as function-calling schemas for frameworks that do not speak MCP:
 * OpenAI `tools` (type "function") and Anthropic Messages API `tools`.
 */
import { inToolset, type Tool, type Toolset } from '../define-tool';
import { inputJsonSchema, type JsonSchema } from '../json-schema';

export interface OpenAITool {
  type: 'function';
  function: { name: string; description: string; parameters: JsonSchema };
}

export interface AnthropicTool {
  name: string;
  description: string;
  input_schema: JsonSchema;
}

type Listable = { list(toolset?: Toolset): readonly Tool<never>[] } | readonly Tool<never>[];

function toolsOf(source: Listable, toolset: Toolset): readonly Tool<never>[] {
  if (Array.isArray(source)) return source.filter((t) => inToolset(t, toolset));
  return (source as { list(toolset?: Toolset): readonly Tool<never>[] }).list(toolset);
}

/** OpenAI function-calling tools (Chat Completions / Responses `tools` array). */
export function toOpenAITools(source: Listable, toolset: Toolset = 'all'): OpenAITool[] {
  return toolsOf(source, toolset).map((tool) => ({
    type: 'function',
    function: { name: tool.name, description: tool.description, parameters: inputJsonSchema(tool) },
  }));
}

/** Anthropic Messages API tools. */
export function toAnthropicTools(source: Listable, toolset: Toolset = 'all'): AnthropicTool[] {
  return toolsOf(source, toolset).map((tool) => ({
    name: tool.name,
    description: tool.description,
    input_schema: inputJsonSchema(tool),
  }));
}

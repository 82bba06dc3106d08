/**
 * @swarm/providers: the whole public API. One streaming `ModelProvider` interface and
 * its four kinds (anthropic, openai, command, scripted), the model alias and price
 * tables. Depends on no colony package: tools arrive as plain JSON Schema.
 */

export type { LineFormat } from './_command-lines.js';
// Providers
export { type AnthropicProviderConfig, anthropicProvider, DEFAULT_MAX_TOKENS } from './anthropic.js';
export { COMMAND_PRESETS, type CommandProviderConfig, commandProvider, lastUserText } from './command.js';
// Models: aliases and prices
export { costUsd, MODEL_ALIASES, MODEL_PRICES, type ModelPrice, resolveModel } from './models.js';
export { type OpenAIProviderConfig, openaiProvider } from './openai.js';
export {
  type Script,
  type ScriptedProvider,
  type ScriptedProviderOptions,
  type ScriptedToolCall,
  type ScriptedTurn,
  scriptedProvider,
} from './scripted.js';
// Vocabulary
export {
  addUsage,
  type ChatMessage,
  type ContentBlock,
  collectTurn,
  type ErrorEvent,
  type ModelProvider,
  type ProviderErrorKind,
  type ProviderEvent,
  type ProviderKind,
  type StopEvent,
  type StopReason,
  type TextBlock,
  type ToolResultBlock,
  type ToolSchema,
  type ToolUseBlock,
  type TurnOptions,
  type TurnRequest,
  type Usage,
  ZERO_USAGE,
} from './types.js';

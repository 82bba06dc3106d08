/**
 * @swarm/tools: the colony tool contract. This file is the whole public API.
 * Tool definitions (zod input, handler binding, docs), the closed set of error codes,
 * the registry that validates and runs calls, and adapters that derive every other
 * surface from the same definitions. The MCP adapter lives at `@swarm/tools/mcp`.
 */

// Other surfaces
export {
  type AnthropicTool,
  getSchemas,
  type OpenAITool,
  toAnthropicTools,
  toOpenAITools,
} from './adapters/function-schemas';
// The contract: backend interface and tools
export type * from './backend';
export type * from './backend-mesh';
export type * from './backend-swarm';
export { COLONY_TOOLS, MESH_TOOLS } from './catalog';
// Defining tools
export {
  defineTool,
  inToolset,
  TOOLSETS,
  type Tool,
  type ToolDocs,
  type ToolSpec,
  type ToolSurface,
  type Toolset,
} from './define-tool';
export { type DocsOptions, renderToolDocs } from './docs';
// Errors
export {
  ColonyError,
  type ColonyErrorOptions,
  type ColonyErrorPayload,
  ERROR_CODES,
  type ErrorCode,
  type ErrorFormat,
  errorCodeOf,
  isColonyError,
  RATE_LIMITED_STATUS,
  type SynthaErrorPayload,
  type ToolErrorPayload,
  toErrorPayload,
} from './errors';
export { inputJsonSchema, type JsonSchema } from './json-schema';
// The registry
export {
  type CallReceipt,
  hashArgs,
  parseArgs,
  type RegistryHooks,
  type ToolCallOutcome,
  ToolRegistry,
} from './registry';
export { MAX_CONTENT_CHARS, TARGET_AGENTS } from './schemas';
export * from './tools/attention';
export * from './tools/claims';
export * from './tools/examples';
export * from './tools/handoffs';
export * from './tools/hivemind';
export * from './tools/lane-activity';
export * from './tools/links';
export * from './tools/memory';
export * from './tools/mesh-context';
export * from './tools/mesh-messages';
export * from './tools/messages';
export * from './tools/plans';
export * from './tools/profiles';
export * from './tools/proposals';
export * from './tools/queen';
export * from './tools/quota';
export * from './tools/ready';
export * from './tools/rescue';
export * from './tools/savings';
export * from './tools/specs';
export * from './tools/startup';
export * from './tools/suggest';
export * from './tools/swarm-context';
export * from './tools/swarm-files';
export * from './tools/swarm-queue';
export * from './tools/swarm-runs';
export * from './tools/tasks';
export * from './tools/workspaces';

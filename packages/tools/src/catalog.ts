/**
 * @module catalog
 * Every tool colony serves, in the order tools/list and docs/mcp.md show them.
 */
import type { ColonyBackend } from './backend';
import type { Tool } from './define-tool';
import { linkTools } from './tools/links';
import { memoryTools } from './tools/memory';
import { messageTools } from './tools/messages';
import { taskTools } from './tools/tasks';

export const COLONY_TOOLS: readonly Tool<ColonyBackend>[] = [
  ...memoryTools,
  ...taskTools,
  ...linkTools,
  ...messageTools,
];

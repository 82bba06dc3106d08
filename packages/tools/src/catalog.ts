/**
 * @module catalog
 * Every tool colony serves, in the order tools/list and docs/mcp.md show them.
 */
import type { ColonyBackend } from './backend';
import type { Tool } from './define-tool';
import { attentionTools } from './tools/attention';
import { claimTools } from './tools/claims';
import { exampleTools } from './tools/examples';
import { frameworkContextTools } from './tools/framework-context';
import { frameworkFileTools } from './tools/framework-files';
import { frameworkQueueTools } from './tools/framework-queue';
import { handoffTools } from './tools/handoffs';
import { hivemindTools } from './tools/hivemind';
import { linkTools } from './tools/links';
import { memoryTools } from './tools/memory';
import { batchContextOperation, meshContextTools } from './tools/mesh-context';
import { meshMessageTools } from './tools/mesh-messages';
import { messageTools } from './tools/messages';
import { planSubtaskTools } from './tools/plan-subtasks';
import { planTools } from './tools/plans';
import { profileTools } from './tools/profiles';
import { proposalTools } from './tools/proposals';
import { queenTools } from './tools/queen';
import { quotaTools } from './tools/quota';
import { readyTools } from './tools/ready';
import { rescueTools } from './tools/rescue';
import { savingsTools } from './tools/savings';
import { specTools } from './tools/specs';
import { startupTools } from './tools/startup';
import { suggestTools } from './tools/suggest';
import { swarmRunTools } from './tools/swarm-runs';
import { taskTools } from './tools/tasks';
import { workspaceTools } from './tools/workspaces';

/** The seven seed-001 tools, in the seed's order (`getSchemas()` lists them so). */
export const MESH_TOOLS = [
  ...meshContextTools,
  ...meshMessageTools,
  batchContextOperation,
] as const satisfies readonly Tool<ColonyBackend>[];

/** Typed member by member (see DefinedTool), so `ToolName` and `ToolArgs<N>` derive from it. */
export const COLONY_TOOLS = [
  ...memoryTools,
  ...hivemindTools,
  ...attentionTools,
  ...startupTools,
  ...taskTools,
  ...claimTools,
  ...linkTools,
  ...handoffTools,
  ...quotaTools,
  ...messageTools,
  ...queenTools,
  // Framework surface (toolset `framework`)
  ...frameworkFileTools,
  ...frameworkContextTools,
  ...frameworkQueueTools,
  ...MESH_TOOLS,
  ...planTools,
  ...planSubtaskTools,
  ...readyTools,
  ...profileTools,
  ...suggestTools,
  ...rescueTools,
  ...proposalTools,
  ...specTools,
  ...exampleTools,
  ...savingsTools,
  // Runtime surface (toolset `runtime`, served with --allow-exec)
  ...workspaceTools,
  ...swarmRunTools,
] as const satisfies readonly Tool<ColonyBackend>[];

/**
 * @module catalog
 * Every tool colony serves, in the order tools/list and docs/mcp.md show them.
 */
import type { ColonyBackend } from './backend';
import type { Tool } from './define-tool';
import { claimTools } from './tools/claims';
import { handoffTools } from './tools/handoffs';
import { linkTools } from './tools/links';
import { memoryTools } from './tools/memory';
import { messageTools } from './tools/messages';
import { planTools } from './tools/plans';
import { profileTools } from './tools/profiles';
import { proposalTools } from './tools/proposals';
import { queenTools } from './tools/queen';
import { quotaTools } from './tools/quota';
import { readyTools } from './tools/ready';
import { rescueTools } from './tools/rescue';
import { specTools } from './tools/specs';
import { taskTools } from './tools/tasks';

export const COLONY_TOOLS: readonly Tool<ColonyBackend>[] = [
  ...memoryTools,
  ...taskTools,
  ...claimTools,
  ...linkTools,
  ...handoffTools,
  ...quotaTools,
  ...messageTools,
  ...queenTools,
  ...planTools,
  ...readyTools,
  ...profileTools,
  ...rescueTools,
  ...proposalTools,
  ...specTools,
];

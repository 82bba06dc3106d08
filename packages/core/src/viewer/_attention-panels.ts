/**
 * @module viewer/attention-panels
 * Claims with file heat, and the inbox: both read from the `attention_inbox` tool.
 */
import { given, type ReadTool } from './_reader';
import type { ViewerScope } from './_scope';

export async function claimsPanel(read: ReadTool, scope: ViewerScope): Promise<unknown> {
  return read('attention_inbox', given({ session_id: scope.sessionId, agent: scope.agent, repo_root: scope.repoRoot }));
}

export async function inboxPanel(read: ReadTool, scope: ViewerScope): Promise<unknown> {
  return read('attention_inbox', given({ session_id: scope.sessionId, agent: scope.agent, repo_root: scope.repoRoot }));
}

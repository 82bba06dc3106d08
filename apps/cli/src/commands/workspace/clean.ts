/** `colony workspace clean`: the `workspace_clean` tool (recovers interrupted swarm runs). */
import { resolve } from 'node:path';
import type { WorkspaceCleanResult } from '@swarm/tools';
import { defineCommand } from 'citty';
import { jsonArg } from '../../_args';
import { storeArgs } from '../../_colony';
import { printJson, printLines } from '../../_output';
import { repoRootArg, runtimeCall } from '../_runtime';

export default defineCommand({
  meta: {
    name: 'clean',
    description:
      'Recover interrupted swarm runs (remove their worktrees, keep branches holding commits) and empty the worktree pool.',
  },
  args: { ...repoRootArg, ...jsonArg, ...storeArgs },
  async run({ args }) {
    const result = await runtimeCall<WorkspaceCleanResult>(args, 'workspace_clean', {
      repo_root: resolve(args['repo-root'] ?? '.'),
    });
    if (args.json) return printJson(result);
    printLines([
      `interrupted runs: ${result.interrupted.length ? result.interrupted.join(', ') : 'none'}`,
      `commands killed: ${result.process_groups_killed}`,
      `worktrees removed: ${result.worktrees_removed}`,
      `pooled worktrees removed: ${result.pool_removed}`,
      ...result.branches_kept.map((b) => `kept ${b} (it holds commits)`),
    ]);
  },
});

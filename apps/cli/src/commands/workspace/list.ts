/** `colony workspace list`: the `workspace_list` tool. */
import { resolve } from 'node:path';
import type { WorkspaceListResult } from '@swarm/tools';
import { defineCommand } from 'citty';
import { jsonArg } from '../../_args';
import { storeArgs } from '../../_colony';
import { printJson, printLines } from '../../_output';
import { repoRootArg, runtimeCall } from '../_runtime';

export default defineCommand({
  meta: { name: 'list', description: "The repository's colony-made worktrees." },
  args: { ...repoRootArg, ...jsonArg, ...storeArgs },
  async run({ args }) {
    const result = await runtimeCall<WorkspaceListResult>(args, 'workspace_list', {
      repo_root: resolve(args['repo-root'] ?? '.'),
    });
    if (args.json) return printJson(result);
    if (result.count === 0) return printLines(['no workspaces']);
    printLines(
      result.workspaces.map(
        (w) => `${w.workspace_name}  ${w.branch ?? '(detached)'}  ${w.clean ? 'clean' : 'dirty'}  ${w.workspace_id}`,
      ),
    );
  },
});

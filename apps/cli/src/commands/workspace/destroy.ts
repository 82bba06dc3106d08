/** `colony workspace destroy <ids...> [--force]`: the `workspace_destroy` tool. */
import { resolve } from 'node:path';
import type { WorkspaceDestroyResult } from '@swarm/tools';
import { defineCommand } from 'citty';
import { jsonArg, restPositionals, usageError } from '../../_args';
import { storeArgs } from '../../_colony';
import { printJson, printLines } from '../../_output';
import { repoRootArg, runtimeCall } from '../_runtime';

export default defineCommand({
  meta: { name: 'destroy', description: 'Remove workspaces; refuses dirty or unmerged ones without --force.' },
  args: {
    workspaces: { type: 'positional', description: 'Workspace ids, names or branches', required: true },
    force: { type: 'boolean', description: 'Remove even with uncommitted or unmerged work', default: false },
    ...repoRootArg,
    ...jsonArg,
    ...storeArgs,
  },
  async run({ args }) {
    const ids = restPositionals(args);
    if (ids.length === 0) throw usageError('name at least one workspace');
    const result = await runtimeCall<WorkspaceDestroyResult>(args, 'workspace_destroy', {
      repo_root: resolve(args['repo-root'] ?? '.'),
      workspace_ids: ids,
      force: args.force,
    });
    if (args.json) return printJson(result);
    printLines(result.destroyed.map((d) => `removed ${d.workspace_id}${d.branch_deleted ? ' and its branch' : ''}`));
  },
});

/** `colony workspace merge <ids...> --into <branch> [--strategy s]`: the `workspace_merge` tool. */
import { resolve } from 'node:path';
import type { WorkspaceMergeResult } from '@swarm/tools';
import { defineCommand } from 'citty';
import { jsonArg, restPositionals, usageError } from '../../_args';
import { storeArgs } from '../../_colony';
import { CliError, printJson, printLines } from '../../_output';
import { repoRootArg, runtimeCall } from '../_runtime';

export default defineCommand({
  meta: { name: 'merge', description: "Merge workspaces' branches into a branch." },
  args: {
    workspaces: { type: 'positional', description: 'Workspace ids, names or branches', required: true },
    into: { type: 'string', description: 'Target branch', valueHint: 'branch', required: true },
    strategy: {
      type: 'string',
      description: 'sequential | branch-per-source | cherry-pick',
      default: 'branch-per-source',
      valueHint: 'strategy',
    },
    ...repoRootArg,
    ...jsonArg,
    ...storeArgs,
  },
  async run({ args }) {
    const ids = restPositionals(args);
    if (ids.length === 0) throw usageError('name at least one workspace');
    const result = await runtimeCall<WorkspaceMergeResult>(args, 'workspace_merge', {
      repo_root: resolve(args['repo-root'] ?? '.'),
      workspace_ids: ids,
      merge_target: args.into,
      merge_strategy: args.strategy,
    });
    if (args.json) printJson(result);
    else
      printLines(
        result.merge.results.map((r) =>
          r.success
            ? `merged ${r.source}: ${r.commits_applied} commit(s)`
            : `NOT merged ${r.source}: ${r.conflicts.length ? `conflicts in ${r.conflicts.join(', ')}` : r.error}`,
        ),
      );
    if (result.merge.results.some((r) => !r.success)) throw new CliError('some workspaces were not merged');
  },
});

/** `colony workspace fork [--count N | --names a,b]`: the `workspace_fork` tool. */
import { resolve } from 'node:path';
import type { WorkspaceForkResult } from '@swarm/tools';
import { defineCommand } from 'citty';
import { jsonArg, parseWholeNumber } from '../../_args';
import { defined, storeArgs } from '../../_colony';
import { printJson, printLines } from '../../_output';
import { list, repoRootArg, runtimeCall } from '../_runtime';

export default defineCommand({
  meta: { name: 'fork', description: 'Create git worktrees of the repository from a base ref.' },
  args: {
    ...repoRootArg,
    'base-ref': { type: 'string', description: 'Commit-ish to start from (default HEAD)', valueHint: 'ref' },
    count: { type: 'string', description: 'How many (default 1)', valueHint: 'n' },
    names: { type: 'string', description: 'Comma-separated names (instead of --count)', valueHint: 'a,b' },
    ...jsonArg,
    ...storeArgs,
  },
  async run({ args }) {
    const names = list(args.names);
    const result = await runtimeCall<WorkspaceForkResult>(
      args,
      'workspace_fork',
      defined({
        repo_root: resolve(args['repo-root'] ?? '.'),
        base_ref: args['base-ref'],
        count: parseWholeNumber(args.count, '--count'),
        names: names.length > 0 ? names : undefined,
      }),
    );
    if (args.json) return printJson(result);
    printLines(result.workspaces.map((w) => `${w.workspace_name}  ${w.branch}  ${w.workspace_id}`));
  },
});

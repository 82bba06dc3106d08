/**
 * `colony examples list`: the `examples_list` tool as a table.
 */
import type { ExampleEntry } from '@swarm/tools';
import { defineCommand } from 'citty';
import { jsonArg } from '../../_args';
import { callTool, storeArgs, withExistingColony } from '../../_colony';
import { columns, iso } from '../../_format';
import { printJson, printLines } from '../../_output';
import { repoRootArg, resolveRepoRoot } from '../../_repo-root';

export default defineCommand({
  meta: { name: 'list', description: 'List indexed examples of a repository (examples_list).' },
  args: { ...repoRootArg, ...jsonArg, ...storeArgs },
  async run({ args }) {
    const repoRoot = await resolveRepoRoot(args['repo-root']);
    const entries = await withExistingColony(args, (colony) =>
      callTool<ExampleEntry[]>(colony, 'examples_list', { repo_root: repoRoot }),
    );
    if (args.json) return printJson(entries);
    if (entries.length === 0) return printLines([`no examples indexed for ${repoRoot} (run colony foraging scan)`]);
    printLines(
      columns([
        ['example', 'kind', 'patterns', 'scanned'],
        ...entries.map((e) => [
          e.example_name,
          e.manifest_kind ?? '-',
          String(e.observation_count),
          iso(e.last_scanned_at),
        ]),
      ]),
    );
  },
});

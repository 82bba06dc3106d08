/**
 * `colony foraging scan`: indexes every `<repo_root>/examples/<name>/` folder as
 * `foraged-pattern` observations (what examples_list, examples_query and
 * examples_integrate_plan read). An unchanged example writes nothing; a changed one
 * is re-indexed; a removed one leaves the index. Not a tool call: it runs the
 * library's `colony.examples.scan()`, like `memory index`.
 */
import { ColonyError } from '@swarm/core';
import { defineCommand } from 'citty';
import { jsonArg } from '../../_args';
import { storeArgs, withColony } from '../../_colony';
import { columns } from '../../_format';
import { CliError, printJson, printLines } from '../../_output';
import { repoRootArg, resolveRepoRoot } from '../../_repo-root';

export default defineCommand({
  meta: { name: 'scan', description: 'Index <repo>/examples/<name>/ folders (an unchanged example writes nothing).' },
  args: { ...repoRootArg, ...jsonArg, ...storeArgs },
  async run({ args }) {
    const repoRoot = await resolveRepoRoot(args['repo-root']);
    const result = await withColony(args, async (colony) => {
      try {
        return await colony.examples.scan(repoRoot);
      } catch (error) {
        if (error instanceof ColonyError) throw new CliError(`${error.code}: ${error.message}`);
        throw error;
      }
    });
    if (args.json) return printJson(result);
    const lines = [`examples of ${result.repo_root}:`];
    if (result.examples.length === 0) lines.push('  none (no folders under examples/)');
    else {
      lines.push(
        ...columns([
          ['example', 'kind', 'status', 'written', 'patterns'],
          ...result.examples.map((e) => [
            e.example_name,
            e.manifest_kind ?? '-',
            e.status,
            String(e.patterns_written),
            String(e.observation_count),
          ]),
        ]).map((l) => `  ${l}`),
      );
    }
    for (const s of result.skipped) lines.push(`  skipped ${s.example_name}: ${s.reason}`);
    printLines(lines);
  },
});

/**
 * `colony status`: where the store is, how much it holds, how many tools each toolset
 * serves, and which optional parts degraded.
 */
import { TOOLSETS } from '@swarm/tools';
import { defineCommand } from 'citty';
import { jsonArg } from '../_args';
import { storeArgs, withExistingColony } from '../_colony';
import { columns } from '../_format';
import { printJson, printLines } from '../_output';

export default defineCommand({
  meta: { name: 'status', description: 'Show the data home, database, record counts, tools and warnings.' },
  args: { ...jsonArg, ...storeArgs },
  async run({ args }) {
    const report = await withExistingColony(args, async (colony) => ({
      ...(await colony.status()),
      toolsets: Object.fromEntries(TOOLSETS.map((set) => [set, colony.registry.list(set).length])),
    }));
    if (args.json) return printJson(report);
    const perSet = TOOLSETS.map((set) => `${set} ${report.toolsets[set]}`).join(', ');
    printLines(
      columns([
        ['home', report.home],
        ['db', report.db_path],
        ['sessions', String(report.sessions)],
        ['observations', String(report.observations)],
        ['tasks', String(report.tasks)],
        ['tools', `${report.tools} (${perSet})`],
        ['warnings', report.warnings.length ? report.warnings.join('; ') : 'none'],
      ]),
    );
  },
});

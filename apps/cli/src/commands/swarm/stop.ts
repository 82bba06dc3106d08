/**
 * `colony swarm stop [--merge|--squash|--discard]`: asks the session runner to
 * stop (merge is the default, no prompt) and waits for it; a dead session runner's
 * session is finished from here.
 */
import { defineCommand } from 'citty';
import { usageError } from '../../_args';
import { storeArgs } from '../../_colony';
import { printJson, printLines } from '../../_output';
import { control, controlOptions, repoArg } from './_session';

export default defineCommand({
  meta: { name: 'stop', description: 'Stop the swarm session: merge (default), squash or discard the agents’ work.' },
  args: {
    merge: { type: 'boolean', description: 'Merge each agent branch (default)' },
    squash: { type: 'boolean', description: 'Squash each agent branch into one commit' },
    discard: { type: 'boolean', description: 'Delete the agent branches without merging' },
    json: { type: 'boolean', description: 'Print the result as JSON' },
    ...repoArg,
    ...storeArgs,
  },
  async run({ args }) {
    const modes = (['merge', 'squash', 'discard'] as const).filter((m) => args[m]);
    if (modes.length > 1) throw usageError('give one of --merge, --squash, --discard');
    const { stopSwarm } = await import('@swarm/core/runtime');
    const result = await control(() => stopSwarm({ ...controlOptions(args), mode: modes[0] ?? 'merge' }));
    if (args.json) return printJson(result);
    const lines = [`session ${result.session_id} stopped`];
    for (const a of result.report?.agents ?? []) {
      lines.push(`  ${a.name}: ${a.outcome}${a.files ? ` (${a.files.join(', ')})` : ''}`);
    }
    printLines(lines);
  },
});

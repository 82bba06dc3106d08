/** `colony swarm clean [--force]`: clears a dead session's worktrees and files; --force also deletes its branches. */
import { defineCommand } from 'citty';
import { storeArgs } from '../../_colony';
import { printJson, printLines } from '../../_output';
import { control, controlOptions, repoArg } from './_session';

export default defineCommand({
  meta: { name: 'clean', description: 'Remove a dead session’s worktrees and files (--force: its branches too).' },
  args: {
    force: { type: 'boolean', description: 'Also delete every colony/<session>/* branch' },
    json: { type: 'boolean', description: 'Print the result as JSON' },
    ...repoArg,
    ...storeArgs,
  },
  async run({ args }) {
    const { cleanSwarm } = await import('@swarm/core/runtime');
    const result = await control(() => cleanSwarm({ ...controlOptions(args), force: args.force === true }));
    if (args.json) return printJson(result);
    printLines([
      `kept branches: ${result.recovered?.kept_branches.join(', ') || '(none)'}`,
      `deleted branches: ${[...(result.recovered?.deleted_branches ?? []), ...result.deleted_branches].join(', ') || '(none)'}`,
    ]);
  },
});

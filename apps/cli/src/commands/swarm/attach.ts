/**
 * `colony swarm attach`: reopens the dashboard on the running session of this
 * repository (or --repo), however it was started; `q` detaches again.
 */
import { defineCommand } from 'citty';
import { storeArgs } from '../../_colony';
import { CliError } from '../../_output';
import { repoArg } from './_session';

export default defineCommand({
  meta: { name: 'attach', description: 'Open the dashboard on the running swarm session (q detaches, Ctrl+C stops).' },
  args: { ...repoArg, ...storeArgs },
  async run({ args }) {
    if (!process.stdout.isTTY || !process.stdin.isTTY) {
      throw new CliError('colony swarm attach needs a terminal (use colony swarm status or logs --follow)');
    }
    const { openDashboard } = await import('./_open-dashboard');
    await openDashboard(args);
  },
});

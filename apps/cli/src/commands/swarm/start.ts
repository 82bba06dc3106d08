/**
 * `colony swarm start [--stash] [--init] [--no-tui]`: on a terminal, starts the session
 * runner in the background and opens the dashboard (`q` detaches, leaving the session
 * running; Ctrl+C stops it). With --no-tui, or when stdout is not a terminal, runs the
 * session runner in this process (foreground) until `colony swarm stop`, SIGTERM or
 * Ctrl-C, printing state changes.
 */
import { resolve } from 'node:path';
import { defineCommand } from 'citty';
import { storeArgs } from '../../_colony';
import { control, controlOptions, repoArg } from './_session';

export default defineCommand({
  meta: { name: 'start', description: 'Start a swarm session of the configured agents (dashboard on a terminal).' },
  args: {
    stash: { type: 'boolean', description: 'Stash uncommitted changes first' },
    init: { type: 'boolean', description: 'git init the folder when it is not a repository' },
    tui: { type: 'boolean', default: true, description: 'Dashboard on a terminal (--no-tui: headless, foreground)' },
    ...repoArg,
    ...storeArgs,
  },
  async run({ args }) {
    if (args.tui && process.stdout.isTTY && process.stdin.isTTY) {
      const { startInBackground } = await import('./_background');
      await startInBackground({ ...args, repo: resolve(args.repo ?? '.') });
      const { openDashboard } = await import('./_open-dashboard');
      return openDashboard(args);
    }
    const { runSwarmSession } = await import('@swarm/core/runtime');
    const print = (line: string) => process.stdout.write(`${line}\n`);
    const result = await control(() =>
      runSwarmSession({
        ...controlOptions(args),
        ...(args.stash ? { stash: true } : {}),
        ...(args.init ? { init: true } : {}),
        print,
      }),
    );
    const failed = result.report.agents.some((a) => a.outcome === 'conflict' || a.outcome === 'error');
    // Exit now: a provider's keep-alive connections must not hold a finished session open.
    process.exit(failed ? 1 : 0);
  },
});

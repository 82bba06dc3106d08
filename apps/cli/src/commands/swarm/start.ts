/**
 * `colony swarm start [--stash] [--init] [--no-tui]`: runs the session runner
 * in this process (foreground) until `colony swarm stop`, SIGTERM or Ctrl-C. There is
 * no TUI yet: state changes are printed (what --no-tui asks for).
 */
import { defineCommand } from 'citty';
import { storeArgs } from '../../_colony';
import { control, controlOptions, repoArg } from './_session';

export default defineCommand({
  meta: { name: 'start', description: 'Start a swarm session of the configured agents (foreground).' },
  args: {
    stash: { type: 'boolean', description: 'Stash uncommitted changes first' },
    init: { type: 'boolean', description: 'git init the folder when it is not a repository' },
    tui: { type: 'boolean', default: true, description: 'Dashboard (not yet: --no-tui is what runs)' },
    ...repoArg,
    ...storeArgs,
  },
  async run({ args }) {
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

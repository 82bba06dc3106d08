#!/usr/bin/env node
/**
 * colony-worker: runs one agent session of a repository in the foreground (the
 * session runner of `colony swarm start --no-tui`, the same code), until SIGTERM, Ctrl-C
 * or `colony swarm stop`. Thin: everything lives in `@swarm/core/runtime`.
 */
import { parseArgs } from 'node:util';
import { runSwarmSession } from '@swarm/core/runtime';

const USAGE = `usage: colony-worker [--repo PATH] [--stash] [--init] [--home DIR] [--db FILE]
Runs the agent session of the repository (default: the current directory) until
colony swarm stop, SIGTERM or Ctrl-C; prints state changes.
`;

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      repo: { type: 'string' },
      stash: { type: 'boolean', default: false },
      init: { type: 'boolean', default: false },
      home: { type: 'string' },
      db: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  const { report } = await runSwarmSession({
    cwd: values.repo ?? process.cwd(),
    ...(values.home ? { home: values.home } : {}),
    ...(values.db ? { dbPath: values.db } : {}),
    stash: values.stash,
    init: values.init,
    print: (line) => process.stdout.write(`${line}\n`),
  });
  return report.agents.some((a) => a.outcome === 'conflict' || a.outcome === 'error') ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`colony-worker: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);

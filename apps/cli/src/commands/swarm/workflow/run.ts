/**
 * `colony swarm workflow run <name> [--input K=V]... [--detach]`: starts a run and
 * drives it here until it completes, fails or pauses at an approval gate (the process
 * then exits; `approve` from any process continues it). `--detach` leaves it to a
 * background `colony swarm workflow resume <run-id>`, logging to
 * `.colony/logs/workflows/<run-id>.log`.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, openSync } from 'node:fs';
import { join } from 'node:path';
import { defineCommand } from 'citty';
import { jsonArg, repeatedFlag } from '../../../_args';
import { storeArgs } from '../../../_colony';
import { printJson } from '../../../_output';
import { control, controlOptions, repoArg } from '../_session';
import { print, report } from './_shared';

export default defineCommand({
  meta: { name: 'run', description: 'Start a workflow run (foreground until done or an approval gate).' },
  args: {
    name: { type: 'positional', description: 'Workflow name', required: true },
    input: { type: 'string', description: 'Input KEY=VALUE (repeatable)', valueHint: 'KEY=VALUE' },
    detach: { type: 'boolean', description: 'Run it in the background' },
    ...jsonArg,
    ...repoArg,
    ...storeArgs,
  },
  async run({ args, rawArgs }) {
    const { startWorkflow } = await import('@swarm/core/runtime');
    const options = controlOptions(args);
    const inputs = repeatedFlag(rawArgs, 'input');
    const say = args.json ? () => {} : print;
    const run = await control(() =>
      startWorkflow({ ...options, name: String(args.name), inputs, drive: !args.detach, print: say }),
    );
    if (!args.detach) return report(run, args.json);
    const logDir = join(run.repo_root, '.colony', 'logs', 'workflows');
    mkdirSync(logDir, { recursive: true });
    const log = join(logDir, `${run.run_id}.log`);
    const fd = openSync(log, 'a');
    const store = [...(args.db ? ['--db', args.db] : []), ...(args.home ? ['--home', args.home] : [])];
    const argv = [process.argv[1]!, 'swarm', 'workflow', 'resume', run.run_id, '--repo', run.repo_root, ...store];
    const child = spawn(process.execPath, argv, { detached: true, stdio: ['ignore', fd, fd] });
    child.unref();
    if (args.json) return printJson({ ...run, detached: { pid: child.pid, log } });
    print(`run ${run.run_id} continues in the background (pid ${child.pid}); log: ${log}`);
  },
});

/**
 * `colony swarm iterate`: the iteration engine (seed 003's flags). `--config <name>`
 * reads `.colony/iterations/<name>.yaml`, `--config-file` a path (one of the two, or
 * `--resume <id>`); `--json` prints one JSON line per event (start, each iteration, the
 * last `{ "done": true, "reason" }`); `--dry-run` prints the plan and runs nothing.
 * Stopping on target, no progress or max iterations exits 0; an error exits 1.
 */
import { defineCommand } from 'citty';
import { parseWholeNumber, usageError } from '../../_args';
import { storeArgs } from '../../_colony';
import { printJson } from '../../_output';
import { eventLine } from './_iterate-lines';
import { control, controlOptions, repoArg } from './_session';

export default defineCommand({
  meta: { name: 'iterate', description: 'Run an iteration loop from a configuration file.' },
  args: {
    config: { type: 'string', description: 'Config name (.colony/iterations/<name>.yaml)', valueHint: 'name' },
    'config-file': { type: 'string', description: 'Path to an iteration config YAML file', valueHint: 'path' },
    resume: { type: 'string', description: 'Resume a previous iteration run', valueHint: 'id' },
    'max-iterations': { type: 'string', description: 'Override max_iterations from the config', valueHint: 'n' },
    'dry-run': { type: 'boolean', description: 'Validate the config and show the plan without executing' },
    tui: { type: 'boolean', default: true, description: 'Dashboard (not yet: --no-tui is what runs)' },
    json: { type: 'boolean', description: 'Output progress as JSON lines' },
    ...repoArg,
    ...storeArgs,
  },
  async run({ args }) {
    if (args.config && args['config-file']) throw usageError('--config and --config-file are mutually exclusive');
    if (args.resume && (args.config || args['config-file'])) {
      throw usageError('--resume continues a run with its own config: give no --config or --config-file');
    }
    if (!args.resume && !args.config && !args['config-file'])
      throw usageError('give --config, --config-file or --resume');
    const max = parseWholeNumber(args['max-iterations'], '--max-iterations');
    if (max === 0) throw usageError('--max-iterations must be at least 1');
    const { iterate } = await import('@swarm/core/runtime');
    const onEvent = args.json
      ? printJson
      : (e: Parameters<typeof eventLine>[0]) => process.stdout.write(`${eventLine(e)}\n`);
    const last = await control(() =>
      iterate({
        ...controlOptions(args),
        ...(args.config ? { config: args.config } : {}),
        ...(args['config-file'] ? { configFile: args['config-file'] } : {}),
        ...(args.resume ? { resume: args.resume } : {}),
        ...(max !== undefined ? { maxIterations: max } : {}),
        dryRun: Boolean(args['dry-run']),
        onEvent,
      }),
    );
    if (last.event === 'done' && last.reason === 'error') process.exitCode = 1;
  },
});

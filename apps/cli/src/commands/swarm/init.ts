/**
 * `colony swarm init [--path P] [--force]`: writes a starter project entry into
 * $COLONY_HOME/settings.json (seed 003's format, keyed by the project's canonical
 * path), keeping colony's other keys and other projects. An existing entry is
 * replaced only with --force.
 */
import { defineCommand } from 'citty';
import { storeArgs } from '../../_colony';
import { printJson, printLines } from '../../_output';
import { control } from './_session';

export default defineCommand({
  meta: { name: 'init', description: 'Add a starter agent configuration for the project to settings.json.' },
  args: {
    path: { type: 'string', description: 'Project folder (default: the current directory)', valueHint: 'path' },
    force: { type: 'boolean', description: 'Replace an existing entry for the project' },
    json: { type: 'boolean', description: 'Print the result as JSON' },
    ...storeArgs,
  },
  async run({ args }) {
    const { initSwarmConfig } = await import('@swarm/core/runtime');
    const result = await control(() =>
      initSwarmConfig({
        path: args.path ?? '.',
        ...(args.home ? { home: args.home } : {}),
        force: args.force === true,
      }),
    );
    if (args.json) return printJson(result);
    printLines([
      `${result.replaced ? 'replaced' : 'wrote'} the entry for ${result.project_root} in ${result.settings_path}`,
      'edit its agents, then run colony swarm start',
    ]);
  },
});

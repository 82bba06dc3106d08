/** `colony swarm collect <swarm_id> [--wait-secs N]`: the `swarm_collect` tool. Exits 1 when a task or merge failed. */
import type { SwarmRunResult } from '@swarm/tools';
import { defineCommand } from 'citty';
import { jsonArg, parseWholeNumber } from '../../_args';
import { defined, storeArgs } from '../../_colony';
import { printJson, printLines } from '../../_output';
import { runtimeCall } from '../_runtime';
import { failIfAnyFailed, runLines } from './_print';

export default defineCommand({
  meta: { name: 'collect', description: "A finished swarm run's full response." },
  args: {
    id: { type: 'positional', description: 'swarm_id', required: true },
    'wait-secs': { type: 'string', description: 'Wait up to this long for it to finish (default 0)', valueHint: 'n' },
    ...jsonArg,
    ...storeArgs,
  },
  async run({ args }) {
    const input = defined({ swarm_id: String(args.id), wait_secs: parseWholeNumber(args['wait-secs'], '--wait-secs') });
    const r = await runtimeCall<SwarmRunResult>(args, 'swarm_collect', input);
    if (args.json) printJson(r);
    else printLines(runLines(r));
    failIfAnyFailed(r);
  },
});

/** `colony swarm status <swarm_id>`: the `swarm_status` tool. */
import type { SwarmStatusResult } from '@swarm/tools';
import { defineCommand } from 'citty';
import { jsonArg } from '../../_args';
import { storeArgs } from '../../_colony';
import { printJson, printLines } from '../../_output';
import { runtimeCall } from '../_runtime';

export default defineCommand({
  meta: { name: 'status', description: "A swarm run's state and workers." },
  args: { id: { type: 'positional', description: 'swarm_id', required: true }, ...jsonArg, ...storeArgs },
  async run({ args }) {
    const s = await runtimeCall<SwarmStatusResult>(args, 'swarm_status', { swarm_id: String(args.id) });
    if (args.json) return printJson(s);
    printLines([
      `${s.swarm_id}: ${s.state}, ${s.progress.completed}/${s.progress.total} done, ${s.progress.running} running, ${s.progress.failed} failed`,
      ...s.workers.map(
        (w) => `  ${w.name}  ${w.state}${w.exit_code !== undefined ? ` exit ${w.exit_code}` : ''}  ${w.elapsed_ms} ms`,
      ),
    ]);
  },
});

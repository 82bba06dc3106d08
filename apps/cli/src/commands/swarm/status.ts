/**
 * `colony swarm status [--json]`: the agent session of this repository (or --repo);
 * `colony swarm status <swarm_id>`: a swarm run's state (the `swarm_status` tool).
 */
import type { SwarmStatusResult } from '@swarm/tools';
import { defineCommand } from 'citty';
import { jsonArg } from '../../_args';
import { storeArgs } from '../../_colony';
import { printJson, printLines } from '../../_output';
import { runtimeCall } from '../_runtime';
import { control, controlOptions, repoArg } from './_session';

export default defineCommand({
  meta: { name: 'status', description: "The agent session's state, or a swarm run's state and workers (with an id)." },
  args: { id: { type: 'positional', description: 'swarm_id', required: false }, ...jsonArg, ...repoArg, ...storeArgs },
  async run({ args }) {
    if (!args.id) {
      const { swarmStatus } = await import('@swarm/core/runtime');
      const status = await control(() => swarmStatus(controlOptions(args)));
      if (args.json) return printJson(status);
      if (!status.session) return printLines(['no session']);
      const s = status.session;
      return printLines([
        `session ${s.id} ${s.active ? 'active' : 'not running (stale)'} pid ${s.pid}, base ${s.base_commit.slice(0, 7)}`,
        ...status.agents.map(
          (a) =>
            `  ${a.name}  ${a.state}  seq ${a.session_seq ?? 0}  errors ${a.consecutive_errors ?? 0}/${a.total_errors ?? 0}${a.stop_reason ? `  (${a.stop_reason})` : ''}`,
        ),
        `plans: ${status.plans.available} available, ${status.plans.claimed} claimed, ${status.plans.completed} completed`,
      ]);
    }
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

/**
 * `colony swarm run <file.json|yaml>`: swarm_run with the arguments in the file (a
 * relative repo_root resolves against the file's folder; none means the current
 * directory). On a terminal it shows progress (tasks running/done, elapsed) while the
 * run goes; `--json` prints the tool's response. Exits 1 when a task or merge failed.
 */
import { resolve } from 'node:path';
import { loadPlanFile } from '@swarm/core';
import type { SwarmRunAnswer, SwarmRunResult, SwarmStatusResult } from '@swarm/tools';
import { defineCommand } from 'citty';
import { jsonArg } from '../../_args';
import { callTool, storeArgs } from '../../_colony';
import { printJson, printLines } from '../../_output';
import { withExecColony } from '../_runtime';
import { failIfAnyFailed, runLines } from './_print';

export default defineCommand({
  meta: { name: 'run', description: 'Run the swarm_run arguments in a JSON or YAML file.' },
  args: {
    file: { type: 'positional', description: 'swarm_run arguments: .json, .yaml or .yml', required: true },
    ...jsonArg,
    ...storeArgs,
  },
  async run({ args }) {
    const document = loadPlanFile(String(args.file)) as unknown as Record<string, unknown>;
    const input = { repo_root: resolve('.'), ...document, background: true };
    const tty = process.stderr.isTTY === true && !args.json;
    const result = await withExecColony(args, async (colony) => {
      const started = await callTool<SwarmRunAnswer>(colony, 'swarm_run', input);
      const id = started.swarm_id;
      const t0 = performance.now();
      for (;;) {
        const status = await callTool<SwarmStatusResult>(colony, 'swarm_status', { swarm_id: id });
        if (tty) {
          const { completed, running, total, failed } = status.progress;
          const secs = ((performance.now() - t0) / 1000).toFixed(1);
          process.stderr.write(
            `\r${id}: ${running} running, ${completed}/${total} done, ${failed} failed, ${secs} s   `,
          );
        }
        if (status.state !== 'running') break;
        await new Promise((r) => setTimeout(r, 250));
      }
      if (tty) process.stderr.write('\n');
      return callTool<SwarmRunResult>(colony, 'swarm_collect', { swarm_id: id, wait_secs: 600 });
    });
    if (args.json) printJson(result);
    else printLines(runLines(result));
    failIfAnyFailed(result);
  },
});

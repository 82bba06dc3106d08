/**
 * `colony swarm hooks run <event> [--input FILE] [--json]`: fires a lifecycle event at
 * the project's hooks as a session would (matchers, parallel sync hooks, exit-code
 * rules, timeouts) and prints the aggregate outcome and each hook's run.
 */

import { resolve } from 'node:path';
import type { HookDispatchResult } from '@swarm/core/runtime';
import { defineCommand } from 'citty';
import { storeArgs } from '../../_colony';
import { printJson, printLines } from '../../_output';
import { control, controlOptions, repoArg } from './_session';

const run = defineCommand({
  meta: { name: 'run', description: 'Fire a hook event (PreToolUse or pre_tool_use) with a JSON context file.' },
  args: {
    event: { type: 'positional', description: 'Event name or settings key', required: true },
    input: { type: 'string', description: 'JSON object file: the context the hooks read', valueHint: 'file' },
    json: { type: 'boolean', description: 'Print the outcome as JSON' },
    ...repoArg,
    ...storeArgs,
  },
  async run({ args }) {
    const { runHooks } = await import('@swarm/core/runtime');
    const { cwd, home } = controlOptions(args);
    const r = await control(() =>
      runHooks({
        cwd,
        ...(home ? { home } : {}),
        event: args.event,
        ...(args.input ? { input_file: resolve(args.input) } : {}),
      }),
    );
    if (args.json) return printJson(r);
    printLines(outcomeLines(r));
  },
});

function outcomeLines(r: HookDispatchResult): string[] {
  const verdict = r.blocked ? `blocked: ${r.reasons.join('; ')}` : r.approved ? 'allowed (approved)' : 'allowed';
  return [
    `${r.event}: ${r.matched} hook(s) matched, ${r.runs.length} sync, ${r.async_started} async; ${verdict}`,
    ...r.runs.map(
      (h) =>
        `  ${h.command}  exit ${h.exit_code}${h.timed_out ? ' (timed out)' : ''}  ${h.decision ?? '-'}${h.reason ? `: ${h.reason}` : ''}${h.error ? `  [${h.error}]` : ''}`,
    ),
  ];
}

export default defineCommand({
  meta: { name: 'hooks', description: 'Run the lifecycle hooks of the project (run).' },
  subCommands: { run },
});

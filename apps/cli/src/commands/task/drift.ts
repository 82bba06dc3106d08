/**
 * `colony task drift <task-id>`: the `task_drift_check` tool. Your active claims on a
 * task against the files you edited recently.
 */
import type { DriftCheckResult } from '@swarm/tools';
import { defineCommand } from 'citty';
import { jsonArg, parseId, parseWholeNumber } from '../../_args';
import { callTool, defined, storeArgs, withColony } from '../../_colony';
import { printJson, printLines } from '../../_output';

export default defineCommand({
  meta: { name: 'drift', description: 'Compare your active claims on a task with the files you edited recently.' },
  args: {
    'task-id': { type: 'positional', description: 'Task id', required: true },
    session: { type: 'string', description: 'Your session id', valueHint: 'id', required: true },
    'window-minutes': {
      type: 'string',
      description: 'Edits of the last N minutes (default 60, max 1440)',
      valueHint: 'n',
    },
    ...jsonArg,
    ...storeArgs,
  },
  async run({ args }) {
    const input = defined({
      task_id: parseId(String(args['task-id']), 'task id'),
      session_id: args.session,
      window_minutes: parseWholeNumber(args['window-minutes'], '--window-minutes'),
    });
    const result = await withColony(args, (colony) => callTool<DriftCheckResult>(colony, 'task_drift_check', input));
    if (args.json) return printJson(result);
    const list = (files: readonly string[]) => (files.length === 0 ? 'none' : files.join(', '));
    printLines([
      `drift ${result.drift_score.toFixed(2)} on task #${result.task_id} (edits of the last ${result.window_minutes} min)`,
      `claimed: ${list(result.claimed_files)}`,
      `edited: ${list(result.edited_files)}`,
      `edits without claim: ${list(result.edits_without_claim)}`,
      `claims without edits: ${list(result.claims_without_edits)}`,
      result.recommendation,
    ]);
  },
});

/**
 * `colony swarm clean [--force]`: removes stale swarm artifacts (a dead session's
 * worktrees and files, every colony/<session>/* branch). It lists them and asks first;
 * `--force` skips the question. Without a terminal to ask on it refuses (exit 1) and
 * says to pass --force, rather than wait for an answer that cannot come.
 */
import { createInterface } from 'node:readline/promises';
import { defineCommand } from 'citty';
import { storeArgs } from '../../_colony';
import { CliError, printJson, printLines } from '../../_output';
import { control, controlOptions, repoArg } from './_session';

export default defineCommand({
  meta: { name: 'clean', description: 'Remove stale session worktrees, branches and files (asks unless --force).' },
  args: {
    force: { type: 'boolean', description: 'Remove without asking' },
    json: { type: 'boolean', description: 'Print the result as JSON' },
    ...repoArg,
    ...storeArgs,
  },
  async run({ args }) {
    const { cleanPlan, cleanSwarm } = await import('@swarm/core/runtime');
    const options = controlOptions(args);
    if (!args.force) {
      const plan = await control(() => cleanPlan(options));
      const what = [
        ...(plan.session_id ? [`the files of dead session ${plan.session_id}`] : []),
        ...plan.worktrees.map((w) => `worktree ${w}`),
        ...plan.branches.map((b) => `branch ${b}`),
      ];
      if (what.length === 0)
        return args.json ? printJson({ recovered: null, deleted_branches: [] }) : printLines(['nothing to clean']);
      if (!process.stdin.isTTY) {
        throw new CliError(
          `colony swarm clean would remove ${what.join(', ')}; no terminal to confirm on: pass --force`,
        );
      }
      const rl = createInterface({ input: process.stdin, output: process.stderr });
      const answer = await rl.question(`Remove ${what.join(', ')}? [y/N] `).finally(() => rl.close());
      if (!/^y(es)?$/i.test(answer.trim())) return printLines(['nothing removed']);
    }
    const result = await control(() => cleanSwarm(options));
    if (args.json) return printJson(result);
    printLines([
      `deleted branches: ${[...(result.recovered?.deleted_branches ?? []), ...result.deleted_branches].join(', ') || '(none)'}`,
    ]);
  },
});

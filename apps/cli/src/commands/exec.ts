/**
 * `colony exec --workspace a,b -- <command...>`: the `exec_parallel` tool: one command
 * broadcast to every workspace, all at once. Exits 1 when any command failed.
 */
import { resolve } from 'node:path';
import type { ExecParallelResult } from '@swarm/tools';
import { defineCommand } from 'citty';
import { jsonArg, parseWholeNumber, restPositionals, usageError } from '../_args';
import { defined, storeArgs } from '../_colony';
import { CliError, printJson, printLines } from '../_output';
import { list, repoRootArg, runtimeCall } from './_runtime';

export default defineCommand({
  meta: { name: 'exec', description: 'Run a shell command in several workspaces at once (exec_parallel).' },
  args: {
    command: { type: 'positional', description: 'The command (after `--`)', required: true },
    workspace: {
      type: 'string',
      description: 'Comma-separated workspace ids, names or branches',
      valueHint: 'a,b',
      required: true,
    },
    'timeout-secs': { type: 'string', description: 'Per-command timeout (default 120)', valueHint: 'n' },
    workdir: { type: 'string', description: 'Folder inside each worktree', valueHint: 'dir' },
    env: { type: 'string', description: 'Comma-separated K=V pairs', valueHint: 'K=V,...' },
    'max-output-bytes': { type: 'string', description: 'Per stream (default 262144)', valueHint: 'n' },
    ...repoRootArg,
    ...jsonArg,
    ...storeArgs,
  },
  async run({ args }) {
    const command = restPositionals(args).join(' ');
    if (command === '') throw usageError('missing COMMAND (put it after `--`)');
    const env = Object.fromEntries(
      list(args.env).map((pair) => {
        const at = pair.indexOf('=');
        if (at <= 0) throw usageError(`--env wants K=V pairs, got "${pair}"`);
        return [pair.slice(0, at), pair.slice(at + 1)];
      }),
    );
    const result = await runtimeCall<ExecParallelResult>(
      args,
      'exec_parallel',
      defined({
        repo_root: resolve(args['repo-root'] ?? '.'),
        workspace_ids: list(args.workspace),
        commands: command,
        timeout_secs: parseWholeNumber(args['timeout-secs'], '--timeout-secs'),
        workdir: args.workdir,
        env: Object.keys(env).length > 0 ? env : undefined,
        max_output_bytes: parseWholeNumber(args['max-output-bytes'], '--max-output-bytes'),
      }),
    );
    if (args.json) printJson(result);
    else
      printLines(
        result.results.flatMap((r) => [
          `== ${r.workspace_name}: exit ${r.exit_code}${r.timed_out ? ' (timed out)' : ''}${r.truncated ? ' (truncated)' : ''}`,
          ...(r.stdout ? [r.stdout.trimEnd()] : []),
          ...(r.stderr ? [r.stderr.trimEnd()] : []),
        ]),
      );
    if (result.summary.failed > 0) throw new CliError(`${result.summary.failed} of ${result.summary.total} failed`);
  },
});

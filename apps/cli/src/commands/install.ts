/**
 * `colony install --ide <ide> [--scope user|project] [--dry-run]`: registers colony's
 * MCP server (and hooks, for Claude Code and Codex) in the IDE's own config files,
 * idempotently, and prints each file and what changed in it. The registered commands
 * run this very CLI by absolute path (`<node> <this cli> ...`), so they work from a
 * checkout and from an installed package alike, whatever PATH the IDE has;
 * `--command colony` registers a bin on PATH instead. `--home`/`--db` given here are
 * passed on to every registered command. `--check` writes nothing: it reports per IDE
 * whether colony is installed and current, exiting 1 when an IDE named is not.
 */
import { defineCommand } from 'citty';
import { jsonArg } from '../_args';
import { storeArgs } from '../_colony';
import { printJson, printLines } from '../_output';
import { checkIde } from '../install/check';
import { type InstallOptions, idesWithScope, installIde } from '../install/install';
import { launcherOf, parseIde, parseScope, storeExtraArgs, targetArgs } from './_install-args';
import { refusingInstallErrors } from './_install-errors';
import { describeChecks, describeReport } from './_install-print';

export default defineCommand({
  meta: { name: 'install', description: "Register colony's MCP server and hooks in an IDE's config (idempotent)." },
  args: {
    ...targetArgs,
    check: {
      type: 'boolean',
      description: 'Report whether colony is installed and current (every IDE unless --ide); write nothing',
      default: false,
    },
    command: {
      type: 'string',
      description: 'Executable the IDE runs for colony (default: this node and this CLI, by absolute path)',
      valueHint: 'exe',
    },
    'allow-exec': {
      type: 'boolean',
      description: 'Register the MCP server with --allow-exec (runtime tools: they run shell commands on the host)',
      default: false,
    },
    ...jsonArg,
    db: { ...storeArgs.db, description: 'Database file the registered commands use (default: theirs)' },
    home: { ...storeArgs.home, description: 'Data home the registered commands use (default: theirs)' },
  },
  async run({ args }) {
    const { scope, projectRoot } = await parseScope(args.scope);
    const base = {
      launcher: launcherOf(args.command),
      extraArgs: storeExtraArgs(args),
      allowExec: args['allow-exec'],
      scope,
      ...(projectRoot ? { projectRoot } : {}),
    };
    if (args.check) {
      const ides = args.ide === undefined ? idesWithScope(scope) : [parseIde(args.ide)];
      const checks = refusingInstallErrors(() => ides.map((ide) => checkIde({ ...base, ide })));
      if (args.json) printJson(checks);
      else printLines(describeChecks(checks));
      if (args.ide !== undefined && checks.some((c) => c.state !== 'installed')) process.exitCode = 1;
      return;
    }
    const options: InstallOptions = { ...base, ide: parseIde(args.ide), dryRun: args['dry-run'] };
    const report = refusingInstallErrors(() => installIde(options));
    if (args.json) return printJson(report);
    printLines(describeReport(report, 'install'));
  },
});

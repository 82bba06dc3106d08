/**
 * `colony install --ide claude-code|codex [--dry-run]`: registers colony's MCP server
 * and hooks in the IDE's own config files, idempotently, and prints each file and
 * what changed in it. The registered commands run this very CLI by absolute path
 * (`<node> <this cli> ...`), so they work from a checkout and from an installed
 * package alike, whatever PATH the IDE has; `--command colony` registers a bin on
 * PATH instead. `--home`/`--db` given here are passed on to every registered command.
 */
import { realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import { INSTALL_IDES, InstallError, type InstallReport, installIde, type Launcher } from '@swarm/core';
import { defineCommand } from 'citty';
import { jsonArg, usageError } from '../_args';
import { storeArgs } from '../_colony';
import { CliError, printJson, printLines } from '../_output';

export default defineCommand({
  meta: { name: 'install', description: "Register colony's MCP server and hooks in an IDE's config (idempotent)." },
  args: {
    ide: {
      type: 'string',
      description: `IDE to configure: ${INSTALL_IDES.join(', ')}`,
      valueHint: 'ide',
      required: true,
    },
    'dry-run': { type: 'boolean', description: 'Show what would change; write nothing', default: false },
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
    const ide = args.ide;
    if (!(INSTALL_IDES as readonly string[]).includes(ide)) {
      throw usageError(`unknown --ide "${ide}"; IDEs: ${INSTALL_IDES.join(', ')}`);
    }
    if (args.command === '') throw usageError('--command needs a value');
    const launcher: Launcher = args.command
      ? { command: args.command, args: [] }
      : { command: process.execPath, args: [realpathSync(process.argv[1] ?? '')] };
    const extraArgs = [
      ...(args.home ? ['--home', resolve(args.home)] : []),
      ...(args.db ? ['--db', args.db === ':memory:' ? args.db : resolve(args.db)] : []),
    ];
    let report: InstallReport;
    try {
      report = installIde({
        ide: ide as (typeof INSTALL_IDES)[number],
        launcher,
        extraArgs,
        allowExec: args['allow-exec'],
        dryRun: args['dry-run'],
      });
    } catch (error) {
      if (error instanceof InstallError) throw new CliError(error.message);
      throw error;
    }
    if (args.json) return printJson(report);
    printLines(describe(report));
  },
});

function describe(report: InstallReport): string[] {
  const changed = report.files.filter((f) => f.changed).length;
  const head = report.dryRun
    ? `dry run: ${changed ? `would change ${changed} file${changed === 1 ? '' : 's'}` : 'nothing to change'}; nothing written`
    : changed
      ? `${report.ide}: changed ${changed} file${changed === 1 ? '' : 's'}`
      : `${report.ide}: already installed; nothing changed`;
  return [
    head,
    ...report.files.map((f) => `  ${f.path}: ${f.items.map((i) => `${i.name} ${i.status}`).join(', ')}`),
    ...report.notes.map((n) => `note: ${n}`),
  ];
}

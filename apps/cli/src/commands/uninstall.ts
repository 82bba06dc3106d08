/**
 * `colony uninstall --ide <ide> [--scope user|project] [--dry-run]`: takes colony's
 * MCP server entry and hooks out of the IDE's config files, and nothing else: the
 * user's servers, hooks and settings stay byte for byte; a container or file colony's
 * entries were all that was left of goes too.
 */
import { defineCommand } from 'citty';
import { jsonArg } from '../_args';
import { printJson, printLines } from '../_output';
import { uninstallIde } from '../install/install';
import { parseIde, parseScope, targetArgs } from './_install-args';
import { refusingInstallErrors } from './_install-errors';
import { describeReport } from './_install-print';

export default defineCommand({
  meta: {
    name: 'uninstall',
    description: "Remove colony's MCP server and hooks from an IDE's config (only colony's).",
  },
  args: { ...targetArgs, ...jsonArg },
  async run({ args }) {
    const ide = parseIde(args.ide);
    const { scope, projectRoot } = await parseScope(args.scope);
    const report = refusingInstallErrors(() =>
      uninstallIde({ ide, scope, ...(projectRoot ? { projectRoot } : {}), dryRun: args['dry-run'] }),
    );
    if (args.json) return printJson(report);
    printLines(describeReport(report, 'uninstall'));
  },
});

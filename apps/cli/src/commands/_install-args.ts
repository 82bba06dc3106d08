/**
 * The flags `colony install` and `colony uninstall` share (--ide, --scope, --dry-run)
 * and what they resolve to: the IDEs, the scope, the project root, and the launcher
 * the registered commands run.
 */
import { realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import { usageError } from '../_args';
import { resolveRepoRoot } from '../_repo-root';
import { INSTALL_IDES, type InstallIde, type InstallScope, isInstallIde, type Launcher } from '../install/install';

export const targetArgs = {
  ide: {
    type: 'string',
    description: `IDE to configure: ${INSTALL_IDES.join(', ')}`,
    valueHint: 'ide',
  },
  scope: {
    type: 'string',
    description: 'user (default: your home) or project (the git repository of the current directory)',
    valueHint: 'user|project',
  },
  'dry-run': { type: 'boolean', description: 'Show what would change; write nothing', default: false },
} as const;

export function parseIde(raw: string | undefined): InstallIde {
  if (raw === undefined || raw === '') throw usageError(`missing --ide: ${INSTALL_IDES.join(', ')}`);
  if (!isInstallIde(raw)) throw usageError(`unknown --ide "${raw}"; IDEs: ${INSTALL_IDES.join(', ')}`);
  return raw;
}

export async function parseScope(raw: string | undefined): Promise<{ scope: InstallScope; projectRoot?: string }> {
  if (raw === undefined || raw === 'user') return { scope: 'user' };
  if (raw !== 'project') throw usageError(`unknown --scope "${raw}"; scopes: user, project`);
  return { scope: 'project', projectRoot: await resolveRepoRoot(undefined) };
}

/** `--command exe`, or this node running this CLI by absolute path. */
export function launcherOf(command: string | undefined): Launcher {
  if (command === '') throw usageError('--command needs a value');
  return command ? { command, args: [] } : { command: process.execPath, args: [realpathSync(process.argv[1] ?? '')] };
}

/** `--home`/`--db` given to install, passed on to every registered command. */
export function storeExtraArgs(args: { home?: string | undefined; db?: string | undefined }): string[] {
  return [
    ...(args.home ? ['--home', resolve(args.home)] : []),
    ...(args.db ? ['--db', args.db === ':memory:' ? args.db : resolve(args.db)] : []),
  ];
}

/**
 * @module install/install
 * `colony install|uninstall --ide <ide>` and `install --check`: colony's MCP server
 * entry (and hooks, where the IDE has hooks colony understands) in the IDE's own
 * config files, at user or project scope. Every file is planned first (read, parsed,
 * changed in memory); only when all of them parse is anything written, each file
 * atomically. A second install finds everything in place and writes nothing; an
 * uninstall takes out exactly colony's entries (and a container or file they were
 * all that was left of), so install then uninstall gives back the files as they were.
 * Where each IDE keeps what: `ides/`.
 */
import { homedir } from 'node:os';
import { applyPlan, type FilePlan, type InstallItem, planChanges } from './_file-plan';
import { hookSpecs, planHooksInstall, planHooksUninstall } from './_hooks-plan';
import type { IdeLocations, InstallScope, Where } from './_ide-spec';
import { planMcpInstall, planMcpUninstall, readMcpEntry } from './_mcp-plan';
import { IDE_SPECS, type InstallIde } from './ides/index';

export { HOOK_TIMEOUT_SECONDS, shellCommand } from './_hooks-plan';
export type { InstallScope } from './_ide-spec';
export { INSTALL_IDES, type InstallIde, idesWithScope, isInstallIde } from './ides/index';

/** How to start colony: an executable and the arguments before the sub-command. */
export interface Launcher {
  readonly command: string;
  readonly args: readonly string[];
}

export interface TargetOptions {
  readonly ide: InstallIde;
  /** Default user. */
  readonly scope?: InstallScope;
  /** The project for project scope (default: the cwd). */
  readonly projectRoot?: string;
  readonly dryRun?: boolean;
  /** The user's home (default: os.homedir(), which follows $HOME). */
  readonly home?: string;
  readonly env?: NodeJS.ProcessEnv;
}

export interface InstallOptions extends TargetOptions {
  readonly launcher: Launcher;
  /** Flags every registered command gets (e.g. `--home DIR`), so all use one store. */
  readonly extraArgs?: readonly string[];
  /** Register the MCP server with `--allow-exec` (the runtime tools; the hooks never get it). */
  readonly allowExec?: boolean;
}

export interface InstalledFile {
  readonly path: string;
  readonly items: readonly InstallItem[];
  /** True when the file was (or, in a dry run, would be) written or removed. */
  readonly changed: boolean;
}

export interface InstallReport {
  readonly ide: InstallIde;
  readonly scope: InstallScope;
  readonly dryRun: boolean;
  readonly files: readonly InstalledFile[];
  readonly notes: readonly string[];
}

/** Where the IDE keeps colony's entries for these options; refuses a scope the IDE has not. */
export function locateIde(options: TargetOptions): IdeLocations {
  const spec = IDE_SPECS[options.ide];
  const scope = options.scope ?? 'user';
  if (!spec.scopes.includes(scope)) throw new ScopeError(`${options.ide} has no ${scope} scope colony writes`);
  const where: Where = {
    scope,
    home: options.home ?? homedir(),
    env: options.env ?? process.env,
    projectRoot: options.projectRoot ?? process.cwd(),
  };
  return spec.locate(where);
}

/** A scope the IDE does not have: a usage error for the CLI. */
export class ScopeError extends Error {
  override readonly name = 'ScopeError';
}

export function installIde(options: InstallOptions): InstallReport {
  const where = locateIde(options);
  const args = [
    ...options.launcher.args,
    'mcp',
    ...(options.extraArgs ?? []),
    ...(options.allowExec ? ['--allow-exec'] : []),
  ];
  const plans = [planMcpInstall(where.mcp, options.launcher.command, args)];
  if (where.hooks) {
    const launcher = [options.launcher.command, ...options.launcher.args];
    const extra = hookStoreArgs(options.extraArgs ?? [], readMcpEntry(where.mcp)?.env.COLONY_HOME);
    plans.push(planHooksInstall(where.hooks, hookSpecs(launcher, options.ide, extra, where.hooks.editMatcher)));
  }
  const report = apply(options, plans);
  const notes =
    options.ide === 'codex' && report.files.some((f) => f.changed)
      ? [
          'Codex runs new or changed hooks only after you review and trust them: open /hooks in Codex once.',
          'Codex before 0.124 also needs `[features] codex_hooks = true` in config.toml.',
        ]
      : [];
  return { ...report, notes };
}

export function uninstallIde(options: TargetOptions): InstallReport {
  const where = locateIde(options);
  const plans = [planMcpUninstall(where.mcp), ...(where.hooks ? [planHooksUninstall(where.hooks)] : [])];
  return { ...apply(options, plans), notes: [] };
}

/**
 * The hooks' store flags: the ones given; else, when the user's MCP entry sets its own
 * COLONY_HOME, that home, so the hooks write where the server reads.
 */
function hookStoreArgs(extraArgs: readonly string[], entryHome: string | undefined): readonly string[] {
  const pinned = extraArgs.includes('--home') || extraArgs.includes('--db');
  return pinned || !entryHome ? extraArgs : [...extraArgs, '--home', entryHome];
}

function apply(options: TargetOptions, plans: readonly FilePlan[]): Omit<InstallReport, 'notes'> {
  const dryRun = options.dryRun ?? false;
  const files = plans.map((plan) => {
    const changed = planChanges(plan);
    if (changed && !dryRun) applyPlan(plan);
    return { path: plan.file.path, items: plan.items, changed };
  });
  return { ide: options.ide, scope: options.scope ?? 'user', dryRun, files };
}

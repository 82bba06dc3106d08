/**
 * @module runtime/config
 * `colony swarm init` and `colony swarm config`: the project's entry in
 * `$COLONY_HOME/settings.json`. The project is the git repository holding the path
 * (what `colony swarm start` keys by), or the folder itself when it is not in one.
 */
import { realpathSync } from 'node:fs';
import { join } from 'node:path';
import {
  type InitEntryResult,
  initProjectEntry,
  loadRuntimeConfig,
  type ResolvedProjectConfig,
  type RuntimeConfigResult,
  SettingsInitError,
} from '@swarm/runtime';
import { detectSandbox, openRepo, type SandboxPolicy } from '@swarm/worktree';
import { resolveHome } from '../paths.js';
import { SwarmControlError } from './control.js';

/** The repository root holding `path`, else the folder itself (canonical). */
export async function projectRootOf(path: string): Promise<string> {
  let folder: string;
  try {
    folder = realpathSync(path);
  } catch {
    throw new SwarmControlError(`no such folder: ${path}`);
  }
  return openRepo(folder).then(
    (repo) => repo.root,
    () => folder,
  );
}

/** Writes the starter entry for the project at `path`; refuses to replace one unless `force`. */
export async function initSwarmConfig(options: {
  path: string;
  home?: string;
  force?: boolean;
}): Promise<InitEntryResult> {
  const projectRoot = await projectRootOf(options.path);
  try {
    return initProjectEntry({ home: resolveHome(options.home), projectRoot, force: options.force === true });
  } catch (error) {
    if (error instanceof SettingsInitError) throw new SwarmControlError(error.message);
    throw error;
  }
}

/** The agents' `sandbox` policy and the sandbox actually active on this machine. */
export interface SandboxView extends SandboxPolicy {
  /** `bwrap`, `sandbox-exec`, or null when agent commands run unsandboxed. */
  readonly active: string | null;
  readonly reason: string;
}

/** What `colony swarm config` prints: the resolved entry without its raw input. */
export type SwarmConfigView = Pick<
  ResolvedProjectConfig,
  'project_root' | 'version' | 'providers' | 'defaults' | 'agents' | 'supervisor' | 'permissions'
> & { readonly sandbox: SandboxView };

export interface SwarmConfigResult extends Omit<RuntimeConfigResult, 'config'> {
  readonly settings_path: string;
  readonly config: SwarmConfigView | null;
}

/** The project's resolved configuration, or the validation errors (each naming its field). */
export async function swarmConfig(options: { cwd: string; home?: string }): Promise<SwarmConfigResult> {
  const home = resolveHome(options.home);
  const loaded = loadRuntimeConfig({ home, projectRoot: await projectRootOf(options.cwd) });
  const c = loaded.config;
  return {
    settings_path: join(home, 'settings.json'),
    config: c && {
      project_root: c.project_root,
      version: c.version,
      providers: c.providers,
      defaults: c.defaults,
      agents: c.agents,
      supervisor: c.supervisor,
      permissions: c.permissions,
      sandbox: sandboxView(c.sandbox),
    },
    errors: loaded.errors,
    warnings: c ? [...loaded.warnings, ...sandboxWarnings(sandboxView(c.sandbox))] : loaded.warnings,
  };
}

/** The policy with what `detectSandbox()` finds here (mode off: nothing is active, by choice). */
export function sandboxView(policy: SandboxPolicy): SandboxView {
  if (policy.mode === 'off') return { ...policy, active: null, reason: 'sandbox mode is off' };
  const found = detectSandbox();
  return { ...policy, active: found.kind, reason: found.reason };
}

function sandboxWarnings(view: SandboxView): string[] {
  if (view.active) return [];
  if (view.mode === 'off') return ['sandbox: mode off, agent bash commands run unsandboxed'];
  if (view.mode === 'required') return [`sandbox: none available (${view.reason}); agent bash commands will fail`];
  return [`sandbox: none available (${view.reason}); agent bash commands run unsandboxed`];
}

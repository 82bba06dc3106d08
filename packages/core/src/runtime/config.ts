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
import { openRepo } from '@swarm/worktree';
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

/** What `colony swarm config` prints: the resolved entry without its raw input. */
export type SwarmConfigView = Pick<
  ResolvedProjectConfig,
  'project_root' | 'version' | 'providers' | 'defaults' | 'agents' | 'supervisor' | 'permissions'
>;

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
    },
    errors: loaded.errors,
    warnings: loaded.warnings,
  };
}

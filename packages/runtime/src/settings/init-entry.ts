/**
 * @module settings/init-entry
 * `colony swarm init`: writes a starter project entry (seed 003's minimal two-agent
 * configuration) into `$COLONY_HOME/settings.json`, keyed by the project's canonical
 * absolute path. Everything else in the file stays as it was: colony's own keys
 * (search, roots, rateLimits...) and the other projects' entries. A file that is not a
 * JSON object is never overwritten, and an existing entry for the project is replaced
 * only when forced. The file is written atomically (temp file + rename).
 */
import { existsSync, mkdirSync, readFileSync, realpathSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { writeAtomic } from '../session/session-files.js';
import { CURRENT_VERSION, SUPPORTED_VERSIONS } from './resolve.js';

/** Seed 003's Quick Start configuration, what `swarm init` leaves to edit. */
export const STARTER_ENTRY = {
  providers: { default: { type: 'anthropic', api_key_env: 'ANTHROPIC_API_KEY' } },
  defaults: { model: 'sonnet' },
  agents: [
    {
      name: 'backend',
      prompt: 'You are a backend engineer. Work on server-side code, APIs, and database logic.',
    },
    {
      name: 'frontend',
      prompt: 'You are a frontend engineer. Work on UI components, styling, and client-side logic.',
    },
  ],
} as const;

export class SettingsInitError extends Error {}

export interface InitEntryResult {
  readonly settings_path: string;
  /** The canonical absolute path the entry is keyed by. */
  readonly project_root: string;
  /** Whether settings.json did not exist before. */
  readonly created_file: boolean;
  /** Whether an existing entry for the project was replaced (force). */
  readonly replaced: boolean;
}

export function initProjectEntry(options: { home: string; projectRoot: string; force?: boolean }): InitEntryResult {
  const root = realpathSync(options.projectRoot);
  const path = join(options.home, 'settings.json');
  const created = !existsSync(path);
  let settings: Record<string, unknown> = {};
  if (!created) {
    let json: unknown;
    try {
      json = JSON.parse(readFileSync(path, 'utf8'));
    } catch (error) {
      throw new SettingsInitError(`${path} is not valid JSON (${(error as Error).message}); fix it or move it away`);
    }
    if (!json || typeof json !== 'object' || Array.isArray(json)) {
      throw new SettingsInitError(`${path} must hold a JSON object; fix it or move it away`);
    }
    settings = json as Record<string, unknown>;
  }
  const version = settings.version;
  if (version !== undefined && !(SUPPORTED_VERSIONS as readonly unknown[]).includes(version)) {
    throw new SettingsInitError(
      `${path}: version ${JSON.stringify(version)} is not supported (expected ${CURRENT_VERSION})`,
    );
  }
  // Keys naming the same folder (a symlinked or unnormalised spelling) are the same entry.
  const existing = Object.keys(settings).filter((key) => isAbsolute(key) && canonical(key) === root);
  if (existing.length > 0 && !options.force) {
    throw new SettingsInitError(`${path} already has an entry for ${root}; pass --force to replace it`);
  }
  const next: Record<string, unknown> = { version: version ?? CURRENT_VERSION };
  for (const [key, value] of Object.entries(settings)) {
    if (key !== 'version' && !existing.includes(key)) next[key] = value;
  }
  next[root] = STARTER_ENTRY;
  mkdirSync(options.home, { recursive: true });
  writeAtomic(path, `${JSON.stringify(next, null, 2)}\n`);
  return { settings_path: path, project_root: root, created_file: created, replaced: existing.length > 0 };
}

function canonical(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/**
 * @module settings
 * `$COLONY_HOME/settings.json`: optional. A missing file means defaults; a malformed
 * one means defaults plus a warning naming the problem. Settings never stop colony.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SandboxConfigSchema } from '@swarm/worktree';
import { z } from 'zod';

export const SettingsSchema = z.object({
  search: z
    .object({
      /** Weight of keyword (BM25) score against vector similarity, 0..1. */
      alpha: z.number().min(0).max(1).default(0.5),
    })
    .prefault({}),
  bridge: z
    .object({
      writeOmxNotepadPointer: z.boolean().default(false),
    })
    .prefault({}),
  foraging: z
    .object({
      /** Index <repo_root>/examples/ at every SessionStart hook (an unchanged example writes nothing). */
      scanOnSessionStart: z.boolean().default(false),
    })
    .prefault({}),
  /** Folders the file tools may read and write under, beside the client's roots (or the cwd's repository). */
  roots: z.array(z.string().min(1)).optional(),
  /** The only agent whose arbiter_decide calls are accepted (approved writes apply only for it). */
  arbiter: z.string().min(1).optional(),
  /**
   * The OS sandbox for exec_parallel and swarm_run commands (mode auto, required or off;
   * default off). Agent `bash` reads the project entry's own `sandbox` (default auto).
   */
  sandbox: SandboxConfigSchema.optional(),
  /** Framework-tool rate limits by tool name or `*`: { limit, window_sec }, or false for none. */
  rateLimits: z
    .record(
      z.string(),
      z.union([z.strictObject({ limit: z.int().min(1), window_sec: z.number().positive() }), z.literal(false)]),
    )
    .optional(),
});

export type Settings = z.output<typeof SettingsSchema>;

export const SETTINGS_FILE = 'settings.json';

export function defaultSettings(): Settings {
  return SettingsSchema.parse({});
}

export interface LoadedSettings {
  readonly settings: Settings;
  readonly warning?: string;
}

export function loadSettings(home: string): LoadedSettings {
  const path = join(home, SETTINGS_FILE);
  let raw: string;
  try {
    raw = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { settings: defaultSettings() };
    return {
      settings: defaultSettings(),
      warning: `settings: cannot read ${path} (${(error as Error).message}); using defaults`,
    };
  }
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch (error) {
    return {
      settings: defaultSettings(),
      warning: `settings: ${path} is not valid JSON (${(error as Error).message}); using defaults`,
    };
  }
  const parsed = SettingsSchema.safeParse(json);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ');
    return { settings: defaultSettings(), warning: `settings: ${path} is invalid (${problems}); using defaults` };
  }
  return { settings: parsed.data };
}

/**
 * @module runtime/workflows/load-iteration
 * Finds and reads an iteration config: `--config <name>` looks in
 * `<repo>/.colony/iterations/<name>.yaml` (or `.yml`), `--config-file` takes a path.
 * Problems carry seed 003's ConfigError texts (`config file not found at {path}`, ...).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { type IterationConfig, parseIterationConfig } from '@swarm/coordination';

export class IterationConfigError extends Error {}

export function iterationConfigPath(root: string, cwd: string, o: { config?: string; configFile?: string }): string {
  if (o.configFile) return resolve(cwd, o.configFile);
  const base = join(root, '.colony', 'iterations', o.config ?? '');
  return ['.yaml', '.yml', '.json'].map((e) => `${base}${e}`).find(existsSync) ?? `${base}.yaml`;
}

export function loadIterationConfig(path: string): IterationConfig {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    throw new IterationConfigError(`config file not found at ${path}`);
  }
  const parsed = parseIterationConfig(text);
  if (!parsed.ok) throw new IterationConfigError(parsed.problems.join('\n'));
  return parsed.config;
}

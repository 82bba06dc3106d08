/**
 * @module env
 * What openColony reads from the environment when its options say nothing: the
 * repository roots hivemind reads, and savings_report's token prices.
 */
import { delimiter } from 'node:path';
import type { SavingsRates } from '@swarm/coordination';
import { HIVEMIND_REPO_ROOTS_ENV } from '@swarm/tools';

/** `COLONY_HIVEMIND_REPO_ROOTS` split by the path delimiter, else the process's working directory. */
export function defaultHivemindRoots(): string[] {
  const roots = (process.env[HIVEMIND_REPO_ROOTS_ENV] ?? '').split(delimiter).filter((r) => r.trim() !== '');
  return roots.length > 0 ? roots : [process.cwd()];
}

/** Rates from `COLONY_MCP_{INPUT,OUTPUT}_USD_PER_1M`; a value that is not a number >= 0 is ignored with a warning. */
export function envRates(warn: (message: string) => void): SavingsRates {
  const read = (name: string): number | undefined => {
    const raw = process.env[name];
    if (raw === undefined || raw.trim() === '') return undefined;
    const value = Number(raw);
    if (Number.isFinite(value) && value >= 0) return value;
    warn(`${name}="${raw}" is not a price (a number >= 0): savings_report ignores it`);
    return undefined;
  };
  const input = read('COLONY_MCP_INPUT_USD_PER_1M');
  const output = read('COLONY_MCP_OUTPUT_USD_PER_1M');
  return { ...(input !== undefined ? { input } : {}), ...(output !== undefined ? { output } : {}) };
}

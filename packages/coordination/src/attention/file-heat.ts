/**
 * @module attention/file-heat
 * How hot a file is at read time: every recent sign of work on it (an edit, a live
 * claim's last refresh) adds 0.5^(age / half-life), so a file's heat halves with every
 * half-life it is left alone and fades without any job rewriting anything. Signals
 * older than FILE_HEAT_WINDOW_HALF_LIVES half-lives are left out (they weigh < 1/64).
 */
import { FILE_HEAT_WINDOW_HALF_LIVES, type FileHeatEntry } from '@swarm/tools';

/** One sign of work on a file. */
export interface HeatSignal {
  readonly repoRoot: string;
  readonly filePath: string;
  readonly taskId: number;
  readonly ts: number;
  /** The observation recording it (the edit, or the claim). */
  readonly observationId: number;
}

/** How far back signals count for this half-life. */
export function heatWindowMs(halfLifeMs: number): number {
  return FILE_HEAT_WINDOW_HALF_LIVES * halfLifeMs;
}

/** The weight of one signal `ageMs` old: 1 now, 0.5 one half-life later. */
export function decayWeight(ageMs: number, halfLifeMs: number): number {
  return 0.5 ** (Math.max(0, ageMs) / halfLifeMs);
}

interface Heat {
  heat: number;
  newest: HeatSignal;
}

/**
 * Heat per (repository, file) at `now`, hottest first (then the most recently worked
 * on, then by path): the whole list, so callers can count it and list the top.
 * Heat is rounded to three decimals.
 */
export function fileHeat(signals: readonly HeatSignal[], now: number, halfLifeMs: number): FileHeatEntry[] {
  const window = heatWindowMs(halfLifeMs);
  const byFile = new Map<string, Heat>();
  for (const signal of signals) {
    const age = now - signal.ts;
    if (age > window) continue;
    const key = `${signal.repoRoot}\u0000${signal.filePath}`;
    const weight = decayWeight(age, halfLifeMs);
    const seen = byFile.get(key);
    if (!seen) byFile.set(key, { heat: weight, newest: signal });
    else {
      seen.heat += weight;
      if (signal.ts > seen.newest.ts) seen.newest = signal;
    }
  }
  return [...byFile.values()]
    .sort((a, b) => b.heat - a.heat || b.newest.ts - a.newest.ts || a.newest.filePath.localeCompare(b.newest.filePath))
    .map(({ heat, newest }) => ({
      file_path: newest.filePath,
      task_id: newest.taskId,
      heat: Math.round(heat * 1000) / 1000,
      observation_id: newest.observationId,
    }));
}

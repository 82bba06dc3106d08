/**
 * @module iterations/progress
 * Progress detection, pure: a probe's output to a score, and after each iteration
 * whether the loop goes on. A score improves when it beats the best so far (higher or
 * lower, as configured); the first score always does. Checked in this order: target
 * reached, no score (error), no improvement for `patience` iterations, max iterations.
 */
import type { IterationConfig } from './iteration-config';

export type StopReason = 'target' | 'no_progress' | 'max_iterations' | 'error';

/** The probe's score, or null when its output holds none. */
export function parseScore(stdout: string, probe: IterationConfig['probe']): number | null {
  if (probe.parse === 'test_count') {
    const passed = [...stdout.matchAll(/(\d+)\s+(?:tests?\s+)?pass(?:ed|ing)?\b/gi)].at(-1);
    return passed ? Number(passed[1]) : null;
  }
  if (probe.parse === 'json') {
    const line = stdout
      .trim()
      .split('\n')
      .reverse()
      .find((l) => l.trim().startsWith('{'));
    try {
      let value: unknown = JSON.parse(line ?? stdout);
      for (const key of (probe.field ?? '').split('.')) value = (value as Record<string, unknown> | null)?.[key];
      return typeof value === 'number' && Number.isFinite(value) ? value : null;
    } catch {
      return null;
    }
  }
  const last = stdout.trim().split('\n').at(-1)?.trim() ?? '';
  const match = /(-?\d+(?:\.\d+)?)\s*%?$/.exec(last);
  return match ? Number(match[1]) : null;
}

export function improves(score: number, best: number | null, direction: 'higher' | 'lower'): boolean {
  if (best === null) return true;
  return direction === 'higher' ? score > best : score < best;
}

export function reached(score: number, target: number | undefined, direction: 'higher' | 'lower'): boolean {
  if (target === undefined) return false;
  return direction === 'higher' ? score >= target : score <= target;
}

export interface ProgressState {
  readonly best: number | null;
  /** Iterations since the last improvement (in this process: a resume restarts the window). */
  readonly stale: number;
}

export interface Decision extends ProgressState {
  readonly improved: boolean;
  readonly stop: StopReason | null;
}

/** After iteration `n` scored `score` (null: the probe gave none). */
export function decide(
  state: ProgressState,
  score: number | null,
  n: number,
  maxIterations: number,
  progress: IterationConfig['progress'],
): Decision {
  if (score === null) return { ...state, improved: false, stop: 'error' };
  const improved = improves(score, state.best, progress.direction);
  const best = improved ? score : state.best;
  const stale = improved ? 0 : state.stale + 1;
  const stop: StopReason | null = reached(score, progress.target, progress.direction)
    ? 'target'
    : stale >= progress.patience
      ? 'no_progress'
      : n >= maxIterations
        ? 'max_iterations'
        : null;
  return { best, stale, improved, stop };
}

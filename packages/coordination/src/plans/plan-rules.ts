/**
 * @module plans/plan-rules
 * The ordering rules of a plan, as small pure functions over its sub-tasks: where each
 * sub-task's wave is, which pairs may run in parallel, and which finalizers run last.
 * Sub-tasks are identified by index; `depends_on` names EARLIER indices, so a valid plan
 * is already in topological order and its waves are longest-path depths.
 */
import type { PlanPairOverlap, PlanRuleCode, PlanWaveError } from '@swarm/tools';

/** What the rules look at in a sub-task. File paths are compared as given. */
export interface PlanShape {
  readonly title: string;
  readonly file_scope: readonly string[];
  readonly depends_on: readonly number[];
  readonly capability_hint?: string | null | undefined;
}

/**
 * Dependencies that point outside the plan, at the sub-task itself or forward, plus
 * any cycle among the in-range dependencies (a cycle always needs a forward edge).
 */
export function dependencyErrors(subtasks: readonly PlanShape[]): PlanWaveError[] {
  const errors: PlanWaveError[] = [];
  subtasks.forEach((subtask, i) => {
    for (const dep of new Set(subtask.depends_on)) {
      if (dep < 0 || dep >= subtasks.length) {
        errors.push(
          depError(i, dep, `sub-task ${i} depends on ${dep}, which is outside the plan (0..${subtasks.length - 1})`),
        );
      } else if (dep >= i) {
        errors.push(depError(i, dep, `sub-task ${i} depends on ${dep}: dependencies must point to earlier indices`));
      }
    }
  });
  const cycle = findCycle(subtasks);
  if (cycle) {
    errors.push({
      code: 'PLAN_INVALID_WAVE_DEPENDENCY',
      message: `dependency cycle: ${cycle.join(' -> ')}`,
      related_subtask_indices: cycle,
    });
  }
  return errors;
}

function depError(index: number, dep: number, message: string): PlanWaveError {
  return { code: 'PLAN_INVALID_WAVE_DEPENDENCY', message, subtask_index: index, dependency_index: dep };
}

/** A dependency cycle as a closed path (first index repeated last), or null. */
function findCycle(subtasks: readonly PlanShape[]): number[] | null {
  const state = new Array<0 | 1 | 2>(subtasks.length).fill(0); // 0 new, 1 on the path, 2 done
  const path: number[] = [];
  const visit = (node: number): number[] | null => {
    state[node] = 1;
    path.push(node);
    for (const dep of subtasks[node]?.depends_on ?? []) {
      if (dep < 0 || dep >= subtasks.length) continue;
      if (state[dep] === 1) return [...path.slice(path.indexOf(dep)), dep];
      if (state[dep] === 0) {
        const found = visit(dep);
        if (found) return found;
      }
    }
    path.pop();
    state[node] = 2;
    return null;
  };
  for (let i = 0; i < subtasks.length; i++) {
    if (state[i] !== 0) continue;
    const found = visit(i);
    if (found) return found;
  }
  return null;
}

/** Wave of each sub-task: 0 without dependencies, else 1 + the highest wave among them. Needs valid dependencies. */
export function computeWaves(subtasks: readonly PlanShape[]): number[] {
  const waves: number[] = [];
  subtasks.forEach((subtask, i) => {
    let wave = 0;
    for (const dep of subtask.depends_on) wave = Math.max(wave, (waves[dep] ?? 0) + 1);
    waves[i] = wave;
  });
  return waves;
}

/** Every sub-task each one depends on, directly or transitively. Needs valid dependencies. */
export function ancestorsOf(subtasks: readonly PlanShape[]): Set<number>[] {
  const ancestors: Set<number>[] = [];
  subtasks.forEach((subtask, i) => {
    const all = new Set<number>();
    for (const dep of subtask.depends_on) {
      all.add(dep);
      for (const a of ancestors[dep] ?? []) all.add(a);
    }
    ancestors[i] = all;
  });
  return ancestors;
}

/** Pairs with no depends_on chain between them, which may therefore run at the same time. */
export function independentPairs(ancestors: readonly Set<number>[]): Array<[number, number]> {
  const pairs: Array<[number, number]> = [];
  for (let b = 0; b < ancestors.length; b++) {
    for (let a = 0; a < b; a++) if (!ancestors[b]?.has(a)) pairs.push([a, b]);
  }
  return pairs;
}

export function sharedFiles(a: PlanShape, b: PlanShape): string[] {
  const other = new Set(b.file_scope);
  return [...new Set(a.file_scope)].filter((f) => other.has(f)).sort();
}

/** Independent pairs that share file_scope entries (same wave or not). */
export function scopeOverlaps(subtasks: readonly PlanShape[], ancestors: readonly Set<number>[]): PlanPairOverlap[] {
  const overlaps: PlanPairOverlap[] = [];
  for (const [a, b] of independentPairs(ancestors)) {
    const shared = sharedFiles(subtasks[a] as PlanShape, subtasks[b] as PlanShape);
    if (shared.length > 0) overlaps.push({ a, b, shared });
  }
  return overlaps;
}

/** Sub-tasks of one wave sharing files: they would run in parallel on the same file. */
export function waveScopeErrors(overlaps: readonly PlanPairOverlap[], waves: readonly number[]): PlanWaveError[] {
  return overlaps
    .filter((o) => waves[o.a] === waves[o.b])
    .map((o) => ({
      code: 'PLAN_WAVE_SCOPE_OVERLAP' as const,
      message: `sub-tasks ${o.a} and ${o.b} are both in wave ${(waves[o.a] ?? 0) + 1} and share ${o.shared.join(', ')}`,
      wave: waves[o.a] as number,
      shared: o.shared,
      related_subtask_indices: [o.a, o.b],
    }));
}

/** Independent sub-tasks in different waves that still share files. */
export function crossWaveScopeErrors(overlaps: readonly PlanPairOverlap[], waves: readonly number[]): PlanWaveError[] {
  return overlaps
    .filter((o) => waves[o.a] !== waves[o.b])
    .map((o) => ({
      code: 'PLAN_SCOPE_OVERLAP' as const,
      message: `sub-tasks ${o.a} and ${o.b} share ${o.shared.join(', ')} without a depends_on chain between them: sequence them`,
      shared: o.shared,
      related_subtask_indices: [o.a, o.b],
    }));
}

const FINAL_WORDS = /\b(final|finalize|finalizer|verify|verification|qa|release)\b/;
const TEST_WORDS = /\b(test|tests|verify|verification|qa)\b/;
const DOC_FINAL = /\b(update|final|release)\b.*\b(doc|docs|documentation|readme|notes)\b/;

/** Finalizers: verification, release, targeted tests, final doc updates. Judged by title and capability_hint. */
export function isFinalizer(subtask: PlanShape): boolean {
  const title = subtask.title.toLowerCase();
  if (FINAL_WORDS.test(title)) return true;
  if (subtask.capability_hint === 'test_work' && TEST_WORDS.test(title)) return true;
  return subtask.capability_hint === 'doc_work' && DOC_FINAL.test(title);
}

/**
 * A finalizer must depend, directly or transitively, on every non-finalizer sub-task:
 * then it runs in a wave after all of them.
 */
export function finalizerErrors(
  subtasks: readonly PlanShape[],
  waves: readonly number[],
  ancestors: readonly Set<number>[],
): PlanWaveError[] {
  const finalizers = subtasks.map(isFinalizer);
  const work = subtasks.map((_, i) => i).filter((i) => !finalizers[i]);
  const errors: PlanWaveError[] = [];
  finalizers.forEach((isFinal, f) => {
    if (!isFinal) return;
    const missing = work.filter((i) => !ancestors[f]?.has(i));
    if (missing.length === 0) return;
    errors.push({
      code: 'PLAN_FINALIZER_NOT_LAST',
      message: `finalizer sub-task ${f} (wave ${(waves[f] ?? 0) + 1}) must depend on every earlier non-finalizer sub-task to run last; missing ${missing.join(', ')}`,
      subtask_index: f,
      wave: waves[f] as number,
      related_subtask_indices: missing,
    });
  });
  return errors;
}

export interface PlanRuleReport {
  /** Every broken rule: dependencies first; the rest only when dependencies are valid. */
  readonly errors: PlanWaveError[];
  /** Independent pairs sharing files. */
  readonly overlaps: PlanPairOverlap[];
  /** Wave per sub-task, or null when the dependencies are invalid. */
  readonly waves: number[] | null;
}

/** Runs every rule. ordered_wave_errors are the errors other than PLAN_SCOPE_OVERLAP. */
export function checkPlanRules(subtasks: readonly PlanShape[]): PlanRuleReport {
  const depErrors = dependencyErrors(subtasks);
  if (depErrors.length > 0) return { errors: depErrors, overlaps: [], waves: null };
  const waves = computeWaves(subtasks);
  const ancestors = ancestorsOf(subtasks);
  const overlaps = scopeOverlaps(subtasks, ancestors);
  return {
    errors: [
      ...waveScopeErrors(overlaps, waves),
      ...finalizerErrors(subtasks, waves, ancestors),
      ...crossWaveScopeErrors(overlaps, waves),
    ],
    overlaps,
    waves,
  };
}

/** The order publishing refuses in: the first code present is the answer. */
export const RULE_PRECEDENCE: readonly PlanRuleCode[] = [
  'PLAN_INVALID_WAVE_DEPENDENCY',
  'PLAN_WAVE_SCOPE_OVERLAP',
  'PLAN_FINALIZER_NOT_LAST',
  'PLAN_SCOPE_OVERLAP',
];

/** The code publishing refuses a plan with these findings' codes: the first of RULE_PRECEDENCE present, else null. */
export function refusalCode(codes: Iterable<string>): PlanRuleCode | null {
  const present = new Set(codes);
  return RULE_PRECEDENCE.find((c) => present.has(c)) ?? null;
}

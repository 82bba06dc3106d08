/**
 * @module ready/downstream
 * How much of a plan waits on each sub-task: the not-completed sub-tasks that depend
 * on it, directly or through others. Ranks ready work (unblocking first) and rescues
 * (blocking stranded work first).
 */
/** What the dependency graph needs of a sub-task. */
interface Node {
  readonly subtaskIndex: number;
  readonly dependsOn: readonly number[];
  readonly status: string;
}

/** For each sub-task index of one plan: its not-completed dependants, transitively. */
export function blockedDownstream(subtasks: readonly Node[]): Map<number, number> {
  const dependants = new Map<number, number[]>();
  for (const s of subtasks) {
    for (const d of s.dependsOn) dependants.set(d, [...(dependants.get(d) ?? []), s.subtaskIndex]);
  }
  const open = new Set(subtasks.filter((s) => s.status !== 'completed').map((s) => s.subtaskIndex));
  const counts = new Map<number, number>();
  for (const s of subtasks) {
    const seen = new Set<number>();
    const stack = [...(dependants.get(s.subtaskIndex) ?? [])];
    while (stack.length > 0) {
      const next = stack.pop() as number;
      if (seen.has(next)) continue;
      seen.add(next);
      stack.push(...(dependants.get(next) ?? []));
    }
    counts.set(s.subtaskIndex, [...seen].filter((i) => open.has(i)).length);
  }
  return counts;
}

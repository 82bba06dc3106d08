/**
 * @module swarm/dag
 * The rules a swarm's task list must pass before anything is created, each a small
 * named check returning a value: names unique and branch-safe, dependencies known,
 * no cycle (Kahn's algorithm). The first broken rule is the answer.
 */

export interface DagTask {
  readonly name: string;
  readonly depends_on?: readonly string[];
}

export type DagCheck =
  | { readonly ok: true; readonly order: string[] }
  | { readonly ok: false; readonly message: string; readonly details: Record<string, unknown> };

/** Lower-case letters, digits, `-` and `_`, starting with a letter or digit: safe in a branch and a path. */
export const TASK_NAME = /^[a-z0-9][a-z0-9_-]{0,62}$/;

export function uniqueNames(tasks: readonly DagTask[]): DagCheck | null {
  const seen = new Set<string>();
  for (const task of tasks) {
    if (!TASK_NAME.test(task.name)) {
      return {
        ok: false,
        message: `task name "${task.name}" must match ${TASK_NAME.source}`,
        details: { task: task.name },
      };
    }
    if (seen.has(task.name))
      return { ok: false, message: `task name "${task.name}" is used twice`, details: { task: task.name } };
    seen.add(task.name);
  }
  return null;
}

export function knownDependencies(tasks: readonly DagTask[]): DagCheck | null {
  const names = new Set(tasks.map((t) => t.name));
  for (const task of tasks) {
    for (const dep of task.depends_on ?? []) {
      if (dep === task.name)
        return { ok: false, message: `task "${task.name}" depends on itself`, details: { cycle: [task.name] } };
      if (!names.has(dep)) {
        return {
          ok: false,
          message: `task "${task.name}" depends on unknown task "${dep}"`,
          details: { task: task.name, unknown: dep },
        };
      }
    }
  }
  return null;
}

/** Kahn's topological sort; a cycle is named by the tasks left over. */
export function topologicalOrder(tasks: readonly DagTask[]): DagCheck {
  const indegree = new Map(tasks.map((t) => [t.name, new Set(t.depends_on ?? []).size]));
  const dependants = new Map<string, string[]>(tasks.map((t) => [t.name, []]));
  for (const task of tasks) for (const dep of new Set(task.depends_on ?? [])) dependants.get(dep)?.push(task.name);
  const queue = tasks.filter((t) => indegree.get(t.name) === 0).map((t) => t.name);
  const order: string[] = [];
  while (queue.length > 0) {
    const name = queue.shift() as string;
    order.push(name);
    for (const next of dependants.get(name) ?? []) {
      const left = (indegree.get(next) ?? 0) - 1;
      indegree.set(next, left);
      if (left === 0) queue.push(next);
    }
  }
  if (order.length < tasks.length) {
    const cycle = tasks.map((t) => t.name).filter((n) => !order.includes(n));
    return { ok: false, message: `depends_on has a cycle among: ${cycle.join(', ')}`, details: { cycle } };
  }
  return { ok: true, order };
}

/** Every rule, in order; the first failure is the answer. */
export function validateDag(tasks: readonly DagTask[]): DagCheck {
  return uniqueNames(tasks) ?? knownDependencies(tasks) ?? topologicalOrder(tasks);
}

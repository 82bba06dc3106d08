/**
 * The plan rules over random plans (fast-check): random DAGs in topological order get
 * waves that are longest-path depths and respect every edge; the same DAGs with their
 * indices shuffled are refused exactly when an edge points forward; added back edges
 * (cycles) are always refused; scope overlap findings match a brute-force reachability
 * check; a finalizer depending on all other work always passes its rule.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ancestorsOf,
  checkPlanRules,
  computeWaves,
  dependencyErrors,
  finalizerErrors,
  type PlanShape,
  scopeOverlaps,
} from '../src/plans/plan-rules';

const FILES = ['a.ts', 'b.ts', 'c.ts', 'd.ts', 'e.ts', 'f.ts'];

/** A DAG in topological order: each node depends on a random subset of earlier ones. */
const dag = fc.integer({ min: 1, max: 14 }).chain((n) =>
  fc.tuple(
    ...Array.from({ length: n }, (_, i) =>
      fc.record({
        depends_on: i === 0 ? fc.constant([]) : fc.uniqueArray(fc.integer({ min: 0, max: i - 1 }), { maxLength: 3 }),
        file_scope: fc.uniqueArray(fc.constantFrom(...FILES), { minLength: 1, maxLength: 2 }),
      }),
    ),
  ),
);

const shapes = (nodes: ReadonlyArray<{ depends_on: number[]; file_scope: string[] }>): PlanShape[] =>
  nodes.map((n, i) => ({ title: `work ${i}`, ...n }));

/** Reachability by depth-first search, independent of the rules' own closure. */
function reaches(plan: readonly PlanShape[], from: number, to: number): boolean {
  const stack = [...(plan[from]?.depends_on ?? [])];
  const seen = new Set<number>();
  while (stack.length > 0) {
    const node = stack.pop() as number;
    if (node === to) return true;
    if (seen.has(node)) continue;
    seen.add(node);
    stack.push(...(plan[node]?.depends_on ?? []));
  }
  return false;
}

describe('plan rules over random DAGs', () => {
  it('accepts every DAG in topological order and gives it longest-path waves', () => {
    fc.assert(
      fc.property(dag, (nodes) => {
        const plan = shapes(nodes);
        expect(dependencyErrors(plan)).toEqual([]);
        const waves = computeWaves(plan);
        plan.forEach((node, i) => {
          for (const dep of node.depends_on) expect(waves[i]).toBeGreaterThan(waves[dep] as number);
          const expected =
            node.depends_on.length === 0 ? 0 : Math.max(...node.depends_on.map((d) => waves[d] ?? 0)) + 1;
          expect(waves[i]).toBe(expected);
        });
        // Every wave below the highest is non-empty: waves are contiguous.
        const used = new Set(waves);
        for (let w = 0; w <= Math.max(...waves); w++) expect(used.has(w)).toBe(true);
      }),
    );
  });

  it('refuses a shuffled DAG exactly when some dependency points forward', () => {
    fc.assert(
      fc.property(
        dag.chain((nodes) =>
          fc.tuple(
            fc.constant(nodes),
            fc.shuffledSubarray(
              nodes.map((_, i) => i),
              { minLength: nodes.length },
            ),
          ),
        ),
        ([nodes, order]) => {
          const position = new Map(order.map((old, pos) => [old, pos]));
          const shuffled = order.map((old) => ({
            title: `work ${old}`,
            file_scope: nodes[old]!.file_scope,
            depends_on: nodes[old]!.depends_on.map((d) => position.get(d) as number),
          }));
          const forward = shuffled.some((n, i) => n.depends_on.some((d) => d >= i));
          const errors = dependencyErrors(shuffled);
          expect(errors.length > 0).toBe(forward);
          for (const e of errors) expect(e.code).toBe('PLAN_INVALID_WAVE_DEPENDENCY');
          expect(checkPlanRules(shuffled).waves === null).toBe(forward);
        },
      ),
    );
  });

  it('refuses every plan with a cycle, naming it', () => {
    fc.assert(
      fc.property(
        dag.filter((nodes) => nodes.length >= 2),
        fc.nat(),
        fc.nat(),
        (nodes, x, y) => {
          const plan = shapes(nodes);
          const low = x % (plan.length - 1);
          const high = low + 1 + (y % (plan.length - low - 1));
          // low -> high closes a cycle through a path high ->* low, added if missing.
          const withPath = plan.map((n, i) =>
            i === high ? { ...n, depends_on: [...new Set([...n.depends_on, low])] } : n,
          );
          const cyclic = withPath.map((n, i) => (i === low ? { ...n, depends_on: [...n.depends_on, high] } : n));
          const errors = dependencyErrors(cyclic);
          const cycle = errors.find((e) => e.message.startsWith('dependency cycle'));
          expect(cycle).toBeDefined();
          expect(cycle?.related_subtask_indices).toEqual(expect.arrayContaining([low, high]));
          expect(cycle?.related_subtask_indices?.[0]).toBe(cycle?.related_subtask_indices?.at(-1));
          expect(errors.some((e) => e.subtask_index === low && e.dependency_index === high)).toBe(true);
        },
      ),
    );
  });

  it('reports scope overlaps for exactly the independent pairs sharing a file, and wave overlaps among them', () => {
    fc.assert(
      fc.property(dag, (nodes) => {
        const plan = shapes(nodes);
        const overlaps = scopeOverlaps(plan, ancestorsOf(plan));
        const expected: string[] = [];
        for (let b = 0; b < plan.length; b++) {
          for (let a = 0; a < b; a++) {
            const shared = plan[a]!.file_scope.filter((f) => plan[b]!.file_scope.includes(f));
            if (shared.length > 0 && !reaches(plan, b, a)) expected.push(`${a}-${b}:${shared.sort().join(',')}`);
          }
        }
        expect(overlaps.map((o) => `${o.a}-${o.b}:${o.shared.join(',')}`).sort()).toEqual(expected.sort());

        const waves = computeWaves(plan);
        const report = checkPlanRules(plan);
        const waveErrors = report.errors.filter((e) => e.code === 'PLAN_WAVE_SCOPE_OVERLAP');
        const scopeErrors = report.errors.filter((e) => e.code === 'PLAN_SCOPE_OVERLAP');
        expect(waveErrors.length + scopeErrors.length).toBe(overlaps.length);
        for (const e of waveErrors) {
          const [a, b] = e.related_subtask_indices as number[];
          expect(waves[a as number]).toBe(waves[b as number]);
        }
        // No overlap at all is exactly a clean partition of the files.
        expect(report.errors.length === 0).toBe(overlaps.length === 0);
      }),
    );
  });

  it('passes a finalizer that depends on every other sub-task, and refuses one that misses any', () => {
    fc.assert(
      fc.property(dag, fc.nat(), (nodes, pick) => {
        const plan = shapes(nodes);
        const all = plan.map((_, i) => i);
        const complete = [...plan, { title: 'Verify release', file_scope: ['z.ts'], depends_on: all }];
        expect(finalizerErrors(complete, computeWaves(complete), ancestorsOf(complete))).toEqual([]);

        // Drop one sink (a node nobody depends on): the finalizer no longer reaches it.
        const sinks = all.filter((i) => !plan.some((n) => n.depends_on.includes(i)));
        const dropped = sinks[pick % sinks.length] as number;
        const partial = [
          ...plan,
          { title: 'Verify release', file_scope: ['z.ts'], depends_on: all.filter((i) => i !== dropped) },
        ];
        const errors = finalizerErrors(partial, computeWaves(partial), ancestorsOf(partial));
        expect(errors).toHaveLength(1);
        expect(errors[0]).toMatchObject({ code: 'PLAN_FINALIZER_NOT_LAST', subtask_index: plan.length });
        expect(errors[0]?.related_subtask_indices).toContain(dropped);
      }),
    );
  });
});

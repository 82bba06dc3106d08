/**
 * @module workflows/stage-graph
 * Pure reads of a run's stage graph: which stages may start (pending, every dependency
 * completed), which stages a gate depends on (a rejection re-runs them), and the run
 * state the stages add up to. Stages run one at a time, in definition order among the
 * ready ones, so a run's order is predictable and its processes bounded.
 */
import type { WorkflowDefinition } from './workflow-definition';

export type StageState =
  | 'pending'
  | 'running'
  | 'awaiting_approval'
  | 'completed'
  | 'failed'
  | 'rejected'
  | 'cancelled';

export interface StageStatus {
  readonly name: string;
  readonly state: StageState;
}

/** Pending stages whose dependencies all completed, in definition order. */
export function readyStages(def: WorkflowDefinition, states: ReadonlyMap<string, StageState>): string[] {
  return def.stages
    .filter((s) => states.get(s.name) === 'pending' && s.depends_on.every((d) => states.get(d) === 'completed'))
    .map((s) => s.name);
}

/** Every stage `name` depends on, directly or not. */
export function upstreamOf(def: WorkflowDefinition, name: string): string[] {
  const byName = new Map(def.stages.map((s) => [s.name, s]));
  const seen = new Set<string>();
  const visit = (n: string) => {
    for (const d of byName.get(n)?.depends_on ?? []) {
      if (seen.has(d)) continue;
      seen.add(d);
      visit(d);
    }
  };
  visit(name);
  return def.stages.filter((s) => seen.has(s.name)).map((s) => s.name);
}

/** Every stage that depends on `name`, directly or not. */
export function downstreamOf(def: WorkflowDefinition, name: string): string[] {
  return def.stages.filter((s) => upstreamOf(def, s.name).includes(name)).map((s) => s.name);
}

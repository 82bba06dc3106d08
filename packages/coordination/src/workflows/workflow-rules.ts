/**
 * @module workflows/workflow-rules
 * The rules of a workflow's stage graph as small pure functions, each answering the
 * seed's problems: stage names, duplicates, unknown dependencies, cycles (found by the
 * plan rules' cycle check, over stage indices), and the fields a stage type needs.
 */
import { dependencyErrors } from '../plans/plan-rules';
import type { WorkflowStage } from './workflow-definition';
import { type WorkflowProblem, workflowProblems } from './workflow-errors';

export const STAGE_NAME = /^[a-z][a-z0-9_-]*$/;

export function invalidStageNames(stages: readonly WorkflowStage[]): WorkflowProblem[] {
  return stages.filter((s) => !STAGE_NAME.test(s.name)).map((s) => workflowProblems.invalidName(s.name));
}

export function duplicateStages(stages: readonly WorkflowStage[]): WorkflowProblem[] {
  const seen = new Set<string>();
  const dups = new Set<string>();
  for (const s of stages) (seen.has(s.name) ? dups : seen).add(s.name);
  return [...dups].map(workflowProblems.duplicate);
}

export function unknownDependencies(stages: readonly WorkflowStage[]): WorkflowProblem[] {
  const names = new Set(stages.map((s) => s.name));
  return stages.flatMap((s) =>
    s.depends_on.filter((d) => !names.has(d)).map((d) => workflowProblems.unknownDep(s.name, d)),
  );
}

/** A cycle among known dependencies (the plan rules' check, which walks every edge). */
export function stageCycles(stages: readonly WorkflowStage[]): WorkflowProblem[] {
  const index = new Map(stages.map((s, i) => [s.name, i]));
  const shapes = stages.map((s) => ({
    title: s.name,
    file_scope: [],
    depends_on: s.depends_on.flatMap((d) => (index.has(d) ? [index.get(d)!] : [])),
  }));
  const cycle = dependencyErrors(shapes).find((e) => e.related_subtask_indices);
  if (!cycle?.related_subtask_indices) return [];
  return [workflowProblems.cycle(cycle.related_subtask_indices.map((i) => stages[i]!.name))];
}

/** command and check stages need exactly one of `command` and `argv`. */
export function runnableFields(stages: readonly WorkflowStage[]): WorkflowProblem[] {
  return stages.flatMap((s) => {
    if (s.type !== 'command' && s.type !== 'check') return [];
    const given = Number(s.command !== undefined) + Number(s.argv !== undefined);
    return given === 1 ? [] : [workflowProblems.validation(`stage '${s.name}': give exactly one of command and argv`)];
  });
}

export function checkStageRules(stages: readonly WorkflowStage[]): WorkflowProblem[] {
  const structural = [...invalidStageNames(stages), ...duplicateStages(stages), ...runnableFields(stages)];
  const deps = unknownDependencies(stages);
  // The cycle check reads dependencies by name: only meaningful over unique names.
  const cycles = duplicateStages(stages).length === 0 ? stageCycles(stages) : [];
  return [...structural, ...deps, ...cycles];
}

/**
 * @module workflows/workflow-errors
 * Seed 003's WorkflowError variants as values, each with its display message verbatim.
 * A definition that fails is answered with a list of these, never a throw.
 */

export type WorkflowProblemKind =
  | 'NotFound'
  | 'ParseError'
  | 'ValidationError'
  | 'CyclicDependency'
  | 'DuplicateStage'
  | 'InvalidStageName'
  | 'UnknownDependency'
  | 'IoError';

export interface WorkflowProblem {
  readonly kind: WorkflowProblemKind;
  readonly message: string;
}

const problem = (kind: WorkflowProblemKind, message: string): WorkflowProblem => ({ kind, message });

export const workflowProblems = {
  notFound: (name: string) => problem('NotFound', `workflow not found: ${name}`),
  parse: (reason: string) => problem('ParseError', `failed to parse workflow: ${reason}`),
  validation: (reason: string) => problem('ValidationError', `workflow validation failed: ${reason}`),
  cycle: (cycle: readonly string[]) =>
    problem('CyclicDependency', `circular dependency detected in workflow stages: ${cycle.join(' -> ')}`),
  duplicate: (name: string) => problem('DuplicateStage', `duplicate stage name: ${name}`),
  invalidName: (name: string) =>
    problem('InvalidStageName', `invalid stage name '${name}': must match [a-z][a-z0-9_-]*`),
  unknownDep: (stage: string, dep: string) =>
    problem('UnknownDependency', `unknown dependency '${dep}' in stage '${stage}'`),
  io: (reason: string) => problem('IoError', `I/O error: ${reason}`),
};

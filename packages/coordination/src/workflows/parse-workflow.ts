/**
 * @module workflows/parse-workflow
 * A workflow file's text to a validated definition, or the seed's problems: YAML (JSON
 * is YAML) parsed with `yaml`, the shape checked with zod (each problem names its field,
 * `stages.1.command`), then the graph rules. Never throws.
 */
import type { z } from 'zod';
import { yaml } from '../_lazy-deps';
import { type WorkflowDefinition, WorkflowDefinitionSchema } from './workflow-definition';
import { type WorkflowProblem, workflowProblems } from './workflow-errors';
import { checkStageRules, STAGE_NAME } from './workflow-rules';

export type ParsedWorkflow =
  | { readonly ok: true; readonly definition: WorkflowDefinition }
  | { readonly ok: false; readonly problems: readonly WorkflowProblem[] };

/** `fallbackName`: the file's name, used when the definition names none. */
export function parseWorkflow(text: string, fallbackName: string): ParsedWorkflow {
  let raw: unknown;
  try {
    raw = yaml().parse(text);
  } catch (error) {
    return { ok: false, problems: [workflowProblems.parse((error as Error).message.split('\n')[0] ?? '')] };
  }
  return validateWorkflow(raw, fallbackName);
}

export function validateWorkflow(raw: unknown, fallbackName: string): ParsedWorkflow {
  const shaped = WorkflowDefinitionSchema.safeParse(raw);
  if (!shaped.success) return { ok: false, problems: shaped.error.issues.map(issueProblem) };
  const def = shaped.data;
  const name = def.name ?? fallbackName;
  const problems = checkStageRules(def.stages);
  if (!STAGE_NAME.test(name))
    problems.unshift(workflowProblems.validation(`name: '${name}' must match [a-z][a-z0-9_-]*`));
  if (problems.length > 0) return { ok: false, problems };
  const inputs = def.inputs.map((i) => (typeof i === 'string' ? { name: i } : { name: i.name, default: i.default }));
  return { ok: true, definition: { name, description: def.description, inputs, stages: def.stages } };
}

function issueProblem(issue: z.core.$ZodIssue): WorkflowProblem {
  const field = issue.path.length > 0 ? issue.path.join('.') : '(root)';
  return workflowProblems.validation(`${field}: ${issue.message}`);
}

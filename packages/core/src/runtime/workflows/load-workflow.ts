/**
 * @module runtime/workflows/load-workflow
 * Workflow definitions on disk: `<repo>/.colony/workflows/<name>.yaml` (or `.yml`,
 * `.json`), listed and loaded. A missing file is seed 003's `workflow not found`, an
 * unreadable one its `I/O error`; parsing and the rules are coordination's.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseWorkflow, type WorkflowDefinition, type WorkflowProblem, workflowProblems } from '@swarm/coordination';

export const WORKFLOW_DIR = join('.colony', 'workflows');
const EXTENSIONS = ['.yaml', '.yml', '.json'];

export class WorkflowError extends Error {
  constructor(readonly problems: readonly WorkflowProblem[]) {
    super(problems.map((p) => p.message).join('\n'));
  }
}

export function workflowNames(root: string): string[] {
  let files: string[];
  try {
    files = readdirSync(join(root, WORKFLOW_DIR));
  } catch {
    return [];
  }
  const names = files.flatMap((f) => EXTENSIONS.filter((e) => f.endsWith(e)).map((e) => f.slice(0, -e.length)));
  return [...new Set(names)].sort();
}

export type LoadedWorkflow =
  | { readonly ok: true; readonly definition: WorkflowDefinition; readonly path: string }
  | { readonly ok: false; readonly problems: readonly WorkflowProblem[]; readonly path: string | null };

export function loadWorkflow(root: string, name: string): LoadedWorkflow {
  for (const ext of EXTENSIONS) {
    const path = join(root, WORKFLOW_DIR, `${name}${ext}`);
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
      return { ok: false, problems: [workflowProblems.io((error as Error).message)], path };
    }
    const parsed = parseWorkflow(text, name);
    return parsed.ok ? { ok: true, definition: parsed.definition, path } : { ...parsed, path };
  }
  return { ok: false, problems: [workflowProblems.notFound(name)], path: null };
}

/** The definition, or a WorkflowError with every problem. */
export function requireWorkflow(root: string, name: string): WorkflowDefinition {
  const loaded = loadWorkflow(root, name);
  if (!loaded.ok) throw new WorkflowError(loaded.problems);
  return loaded.definition;
}

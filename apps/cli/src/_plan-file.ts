/**
 * @module plan-file
 * Reads the plan file `colony plan publish` is given: JSON or YAML, one plan object
 * (task_plan_publish arguments, session_id, agent and repo_root optional).
 */
import { readFileSync } from 'node:fs';
import { dirname, extname, isAbsolute, resolve } from 'node:path';
import { ColonyError, type PlanDocument } from '@swarm/core';
import { parse as parseYaml } from 'yaml';

/**
 * Reads a plan file: `.json`, or `.yaml` / `.yml` (anything else is tried as JSON,
 * then YAML). A relative repo_root in the file resolves against the file's folder.
 * An unreadable file throws the I/O error; an unparsable one INVALID_PARAMETERS.
 */
export function loadPlanFile(path: string): PlanDocument {
  const text = readFileSync(path, 'utf8');
  const ext = extname(path).toLowerCase();
  let parsed: unknown;
  try {
    parsed = ext === '.json' ? JSON.parse(text) : ext === '.yaml' || ext === '.yml' ? parseYaml(text) : parseAny(text);
  } catch (error) {
    throw new ColonyError(
      'INVALID_PARAMETERS',
      `${path} is not valid ${ext === '.json' ? 'JSON' : 'JSON or YAML'}: ${(error as Error).message}`,
      {
        details: { path },
        cause: error,
      },
    );
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new ColonyError('INVALID_PARAMETERS', `${path} must hold one plan object (task_plan_publish arguments)`, {
      details: { path },
    });
  }
  const plan = parsed as PlanDocument;
  if (typeof plan.repo_root === 'string' && !isAbsolute(plan.repo_root)) {
    return { ...plan, repo_root: resolve(dirname(resolve(path)), plan.repo_root) };
  }
  return plan;
}

function parseAny(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return parseYaml(text);
  }
}

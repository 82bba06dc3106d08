/**
 * Plan test builders: sub-tasks and publish arguments with sensible defaults, so each
 * test spells out only what it is about.
 */
import type { Fixture } from './_fixture';

export interface SubtaskSpec {
  title?: string;
  description?: string;
  file_scope?: string[];
  depends_on?: number[];
  capability_hint?: string;
  spec_row_id?: string;
}

export function subtask(title: string, files: string[], depends_on: number[] = [], extra: SubtaskSpec = {}) {
  return { title, description: `${title}: do it.`, file_scope: files, depends_on, ...extra };
}

/** Three waves: storage; API and UI on it; a verification finalizer on both. */
export function threeWaveSubtasks() {
  return [
    subtask('Prepare storage', ['packages/storage/src/widgets.ts'], [], { capability_hint: 'infra_work' }),
    subtask('Build API', ['apps/api/src/widgets.ts'], [0], { capability_hint: 'api_work' }),
    subtask('Build UI', ['apps/frontend/src/widgets.tsx'], [0], { capability_hint: 'ui_work' }),
    subtask('Verify release', ['apps/api/test/widgets.test.ts'], [1, 2], { capability_hint: 'test_work' }),
  ];
}

export function publishArgs(repoRoot: string, extra: Record<string, unknown> = {}) {
  return {
    repo_root: repoRoot,
    slug: 'add-widget-page',
    session_id: 'queen-1',
    agent: 'claude',
    title: 'Add widget page',
    problem: 'No widget page exists yet.',
    acceptance_criteria: ['Widget page renders', 'Widget API returns rows'],
    subtasks: threeWaveSubtasks(),
    ...extra,
  };
}

export interface PublishResult {
  plan_slug: string;
  spec_task_id: number;
  spec_change_path: string | null;
  subtasks: Array<{ subtask_index: number; branch: string; task_id: number; title: string }>;
}

export const publish = (fx: Fixture, repoRoot: string, extra: Record<string, unknown> = {}) =>
  fx.ok<PublishResult>('task_plan_publish', publishArgs(repoRoot, extra));

export const claimArgs = (subtask_index: number, session_id: string, agent: string, plan_slug = 'add-widget-page') => ({
  plan_slug,
  subtask_index,
  session_id,
  agent,
});

export const completeArgs = (subtask_index: number, session_id: string, plan_slug = 'add-widget-page') => ({
  plan_slug,
  subtask_index,
  session_id,
  summary: `sub-${subtask_index} done`,
});

/**
 * @module tools/suggest
 * Suggestions from past tasks: which earlier task threads resemble the work at hand
 * (by embedding similarity), and what they teach: the files they touched first, the
 * warnings they left, how long and how many handoffs they took. Derived guidance and
 * ids only, never historical bodies.
 */
import { z } from 'zod';
import { defineTool } from '../define-tool';
import type { BudgetInfo } from '../schemas';
import { limit, repoRoot, taskId } from '../schemas';

export const TaskSuggestApproachInput = z.strictObject({
  query: z.string().min(1).max(2000),
  repo_root: repoRoot.optional(),
  current_task_id: taskId.optional(),
  limit: limit(5, 20),
});
export type TaskSuggestApproachInput = z.output<typeof TaskSuggestApproachInput>;

export interface SimilarTask {
  task_id: number;
  similarity: number;
  branch: string;
  repo_root: string;
  /** `completed` (a completed plan sub-task or an archived plan), else the thread's status. */
  status: string;
  observation_count: number;
}

export interface LikelyFile {
  file_path: string;
  appears_in_count: number;
  confidence: number;
}

export interface PatternToWatch {
  description: string;
  seen_in_task_id: number;
  kind: string;
  observation_id: number;
}

export interface ResolutionHints {
  median_elapsed_minutes: number | null;
  median_handoff_count: number | null;
  median_subtask_count: number | null;
  completed_sample_size: number;
}

export interface SuggestApproachResult {
  similar_tasks: SimilarTask[];
  first_files_likely_claimed: LikelyFile[];
  patterns_to_watch: PatternToWatch[];
  resolution_hints: ResolutionHints;
  insufficient_data_reason: string | null;
  budget: BudgetInfo;
}

export interface SuggestBackend {
  suggestApproach(args: TaskSuggestApproachInput): Promise<SuggestApproachResult>;
}

/** The part of ColonyBackend these tools call (backend.ts composes the whole). */
type Host = { readonly suggest: SuggestBackend };

export const taskSuggestApproach = defineTool({
  name: 'task_suggest_approach',
  title: 'Suggest approach',
  description: 'Hints from similar past tasks.',
  input: TaskSuggestApproachInput,
  mutates: false,
  docs: {
    returns:
      '{ similar_tasks: [ { task_id, similarity, branch, repo_root, status, observation_count } ], ' +
      'first_files_likely_claimed: [ { file_path, appears_in_count, confidence } ], patterns_to_watch: ' +
      '[ { description, seen_in_task_id, kind, observation_id } ], resolution_hints: { ' +
      'median_elapsed_minutes, median_handoff_count, median_subtask_count, completed_sample_size }, ' +
      'insufficient_data_reason, budget }',
    errors: ['TASK_NOT_FOUND'],
    notes:
      'A task is as similar as the cosine between the query vector and the normalized sum of its ' +
      'observation vectors; tasks below the similarity floor (0.2) are left out, and so are ' +
      'current_task_id and, with repo_root, other repositories. first_files_likely_claimed: files the ' +
      'similar tasks claimed or edited first (their first five each); confidence is the summed ' +
      'similarity of the tasks naming the file over the number of similar tasks. patterns_to_watch: ' +
      'negative posts (failed_approach, blocked_path, conflict_warning, reverted_solution) and expired ' +
      'handoffs (kind expired-handoff) of those tasks, newest first. resolution_hints cover the ' +
      'completed ones (a completed plan sub-task or an archived plan); medians are null without any. ' +
      'insufficient_data_reason is null, or says why the lists are empty: vectors off, none built yet ' +
      '(the MCP server builds them when idle; `colony memory index` does it at once), or nothing above ' +
      'the floor. Hydrate task ids with task_timeline, observation ids with get_observations.',
    example: { query: 'quota relay stale claims cleanup', repo_root: '/abs/repo', current_task_id: 17, limit: 5 },
  },
  handler: (args, b: Host) => b.suggest.suggestApproach(args),
});

export const suggestTools = [taskSuggestApproach];

/**
 * @module viewer/lanes-panel
 * Live lanes: the `hivemind` tool's lanes (one session on one task thread) with their
 * activity, read at call time from heartbeats and file work by the one definition of
 * lane activity behind that tool, and the counts per activity. Dead lanes are listed
 * too (include_stale), so a lane that stops is seen going dead rather than vanishing.
 */
import { given, type ReadTool } from './_reader';
import type { ViewerScope } from './_scope';

/** Lanes shown at most (the tool's own cap). */
export const LANE_LIMIT = 100;

/** The fields of a hivemind lane the page shows. */
export interface HivemindLaneView {
  readonly session_id: string;
  readonly task_id: number;
  readonly branch: string;
  readonly task: string;
  readonly agent: string;
  readonly owner: string;
  readonly activity: string;
  readonly activity_summary: string;
  readonly worktree_path: string | null;
  readonly locked_file_count: number;
  readonly locked_file_preview: readonly string[];
  readonly needs_attention: boolean;
}

interface HivemindAnswer {
  readonly repo_roots: readonly string[];
  readonly session_count: number;
  readonly counts: Record<string, number>;
  readonly sessions: readonly HivemindLaneView[];
}

export interface LanesPanel {
  readonly repo_roots: readonly string[];
  readonly session_count: number;
  readonly counts: Record<string, number>;
  readonly lanes: readonly HivemindLaneView[];
}

export async function lanesPanel(read: ReadTool, scope: ViewerScope): Promise<LanesPanel> {
  const answer = await read<HivemindAnswer>(
    'hivemind',
    given({ repo_root: scope.repoRoot, include_stale: true, limit: LANE_LIMIT }),
  );
  return {
    repo_roots: answer.repo_roots,
    session_count: answer.session_count,
    counts: answer.counts,
    lanes: answer.sessions.map((l) => ({
      session_id: l.session_id,
      task_id: l.task_id,
      branch: l.branch,
      task: l.task,
      agent: l.agent,
      owner: l.owner,
      activity: l.activity,
      activity_summary: l.activity_summary,
      worktree_path: l.worktree_path,
      locked_file_count: l.locked_file_count,
      locked_file_preview: l.locked_file_preview,
      needs_attention: l.needs_attention,
    })),
  };
}

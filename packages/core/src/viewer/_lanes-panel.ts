/**
 * @module viewer/lanes-panel
 * Live lanes: the `hivemind` tool's sessions with their activity (the one definition of
 * lane activity lives behind that tool), and the counts per activity.
 */
import { given, type ReadTool } from './_reader';
import type { ViewerScope } from './_scope';

/** Lanes shown at most (the tool's own cap is 100). */
export const LANE_LIMIT = 100;

interface HivemindAnswer {
  readonly generated_at?: string;
  readonly session_count: number;
  readonly counts: Record<string, number>;
  readonly sessions: readonly Record<string, unknown>[];
}

export interface LanesPanel {
  readonly session_count: number;
  readonly counts: Record<string, number>;
  readonly lanes: readonly Record<string, unknown>[];
}

export async function lanesPanel(read: ReadTool, scope: ViewerScope): Promise<LanesPanel> {
  const answer = await read<HivemindAnswer>(
    'hivemind',
    given({ repo_root: scope.repoRoot, include_stale: true, limit: LANE_LIMIT }),
  );
  return { session_count: answer.session_count, counts: answer.counts, lanes: answer.sessions };
}

/**
 * @module viewer/lanes-panel
 * Live lanes: the `hivemind` tool's lanes (one session on one task thread) with their
 * activity, read at call time from heartbeats and file work by the one definition of
 * lane activity behind that tool, and the counts per activity. Dead lanes are listed
 * too (include_stale), so a lane that stops is seen going dead rather than vanishing.
 */
import type { HivemindLane, HivemindResult } from '@swarm/tools';
import { given, type ReadTool } from './_reader';
import type { ViewerScope } from './_scope';

/** Lanes shown at most (the tool's own cap). */
export const LANE_LIMIT = 100;

/** The fields of a hivemind lane the page shows (all but `source`). */
export type HivemindLaneView = Omit<HivemindLane, 'source'>;

export interface LanesPanel {
  readonly repo_roots: readonly string[];
  readonly session_count: number;
  readonly counts: Record<string, number>;
  readonly lanes: readonly HivemindLaneView[];
}

export async function lanesPanel(read: ReadTool, scope: ViewerScope): Promise<LanesPanel> {
  const answer = await read<HivemindResult>(
    'hivemind',
    given({ repo_root: scope.repoRoot, include_stale: true, limit: LANE_LIMIT }),
  );
  return {
    repo_roots: answer.repo_roots,
    session_count: answer.session_count,
    counts: answer.counts,
    lanes: answer.sessions.map(({ source: _source, ...lane }) => lane),
  };
}

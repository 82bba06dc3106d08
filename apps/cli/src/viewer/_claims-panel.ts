/**
 * @module viewer/claims-panel
 * Claims and file heat for the whole scope, from `attention_inbox` asked on behalf of
 * a session that holds nothing and takes part in nothing (VIEWER_SESSION): its "other
 * sessions' claims" are then everyone's fresh and handoff-pending claims, beside the
 * stale-claim summary and the decaying file heat. attention_inbox writes nothing, and
 * an unknown session is not registered by asking.
 */
import { type AttentionInbox, type AttentionInboxResult, expandInbox } from '@swarm/tools';
import { given, type ReadTool } from './_reader';
import type { ViewerScope } from './_scope';

/** The session the viewer reads fleet-wide attention as; it never calls a tool that writes. */
export const VIEWER_SESSION = 'colony-viewer';
export const VIEWER_AGENT = 'viewer';
/** Claims refreshed within a day: every fresh claim, and handoff-pending ones waiting on a baton. */
const CLAIM_WINDOW_MINUTES = 1440;
export const CLAIM_LIMIT = 50;
export const HOT_FILE_LIMIT = 15;

export interface ClaimsPanel {
  readonly claim_count: number;
  readonly claims: AttentionInbox['recent_other_claims'];
  readonly stale: AttentionInbox['stale_claim_signals'];
  readonly file_heat: AttentionInbox['file_heat'];
}

export async function claimsPanel(read: ReadTool, scope: ViewerScope): Promise<ClaimsPanel> {
  // The answer omits empty buckets and zero counts (issue 17); the panel shows them all.
  const answer = await read<AttentionInboxResult>(
    'attention_inbox',
    given({
      session_id: VIEWER_SESSION,
      agent: VIEWER_AGENT,
      repo_root: scope.repoRoot,
      recent_claim_window_minutes: CLAIM_WINDOW_MINUTES,
      recent_claim_limit: CLAIM_LIMIT,
      file_heat_limit: HOT_FILE_LIMIT,
    }),
  );
  const inbox = expandInbox(answer);
  return {
    claim_count: inbox.summary.recent_other_claim_count,
    claims: inbox.recent_other_claims,
    stale: inbox.stale_claim_signals,
    file_heat: inbox.file_heat,
  };
}

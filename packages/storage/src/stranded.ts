/**
 * @module stranded
 * Queries for stranded work: live file claims held by sessions that stopped
 * heartbeating. What counts as stranded (the cutoff) is the caller's rule.
 */
import { and, asc, eq, lt } from 'drizzle-orm';
import { dbOf, type Store } from './_store';
import type { FileClaim } from './claims';
import { fileClaims, sessions, tasks } from './schema';

/** An active claim of a quiet session, with its task's place and the session's last sign of life. */
export interface IdleClaim extends FileClaim {
  readonly repoRoot: string;
  readonly branch: string;
  readonly lastHeartbeatAt: number;
}

/**
 * Active claims (not handoff_pending: those already wait on a baton) of sessions whose
 * last heartbeat is before `cutoff`, longest-quiet session first, then by task and file.
 */
export function activeClaimsOfIdleSessions(store: Store, cutoff: number): IdleClaim[] {
  return dbOf(store)
    .select({ claim: fileClaims, repoRoot: tasks.repoRoot, branch: tasks.branch, heartbeat: sessions.lastHeartbeatAt })
    .from(fileClaims)
    .innerJoin(sessions, eq(sessions.id, fileClaims.sessionId))
    .innerJoin(tasks, eq(tasks.id, fileClaims.taskId))
    .where(and(eq(fileClaims.state, 'active'), lt(sessions.lastHeartbeatAt, cutoff)))
    .orderBy(asc(sessions.lastHeartbeatAt), asc(fileClaims.sessionId), asc(fileClaims.taskId), asc(fileClaims.filePath))
    .all()
    .map((r) => ({ ...r.claim, repoRoot: r.repoRoot, branch: r.branch, lastHeartbeatAt: r.heartbeat }));
}

/**
 * @module batons/_resolve
 * What accepting, declining and expiring a baton share. Each runs inside the caller's
 * `store.write` (BEGIN IMMEDIATE), and every status change is a guarded update on
 * `status = 'pending'`: of many processes racing on one baton exactly one wins, and
 * the claims it carries move exactly once. Every change appends an audit observation
 * replying to the baton's observation.
 */
import {
  type Baton,
  type BatonKind,
  findLiveClaim,
  getBaton,
  getObservation,
  insertClaim,
  type Participant,
  pendingBatonOfFile,
  pendingClaimsOfBaton,
  refreshClaim,
  releaseLiveClaims,
  resolveBaton,
  settlePendingClaims,
  type Task,
  weakenClaims,
} from '@swarm/storage';
import { ColonyError } from '@swarm/tools';
import { appendObservation, type DomainContext } from '../context';
import { normalizeRepoPath } from '../repo-paths';
import { targetsAgent } from './targeting';

/** The id argument naming a baton, as each tool spells it. */
export type BatonIdField = 'handoff_observation_id' | 'relay_observation_id';

/** The baton announced by observation `id`; OBSERVATION_NOT_FOUND when there is none of this kind. */
export async function requireBaton(
  ctx: DomainContext,
  id: number,
  kind: BatonKind | 'any',
  field: BatonIdField,
): Promise<Baton> {
  const baton = await getBaton(ctx.store, id);
  if (baton && (kind === 'any' || baton.kind === kind)) return baton;
  const actual = baton?.kind ?? (await getObservation(ctx.store, id))?.kind;
  const wanted = kind === 'any' ? 'handoff or relay' : kind;
  throw new ColonyError(
    'OBSERVATION_NOT_FOUND',
    actual === undefined ? `${field} ${id}: no such observation` : `observation ${id} is a ${actual}, not a ${wanted}`,
    { details: { [field]: id, ...(actual === undefined ? {} : { kind: actual }) } },
  );
}

/** A baton on `task` named by its observation id or by a file it holds a pending claim on. */
export async function batonOnTask(
  ctx: DomainContext,
  task: Task,
  ref: { readonly handoff_observation_id?: number | undefined; readonly file_path?: string | undefined },
): Promise<Baton> {
  if (ref.handoff_observation_id !== undefined) {
    const baton = await requireBaton(ctx, ref.handoff_observation_id, 'any', 'handoff_observation_id');
    if (baton.taskId !== task.id) {
      throw new ColonyError(
        'OBSERVATION_NOT_ON_TASK',
        `${baton.kind} ${baton.id} is on task ${baton.taskId}, not task ${task.id}`,
        { details: { handoff_observation_id: baton.id, task_id: task.id, observation_task_id: baton.taskId } },
      );
    }
    return baton;
  }
  const filePath = normalizeRepoPath(task.repoRoot, ref.file_path ?? '');
  const baton = await pendingBatonOfFile(ctx.store, task.id, filePath);
  if (!baton) {
    throw new ColonyError(
      'OBSERVATION_NOT_FOUND',
      `no pending handoff or relay holds a claim on ${filePath} in task ${task.id}`,
      { details: { file_path: filePath, task_id: task.id } },
    );
  }
  return baton;
}

/** Refuses a baton that is no longer pending, with the code its status calls for. */
export function assertPending(baton: Baton): void {
  const details = { status: baton.status, resolved_by_session_id: baton.resolvedBySessionId };
  if (baton.status === 'accepted') {
    throw new ColonyError(
      'ALREADY_ACCEPTED',
      `${baton.kind} ${baton.id} was already accepted by ${baton.resolvedBySessionId}`,
      { details },
    );
  }
  if (baton.status === 'cancelled') {
    throw new ColonyError('HANDOFF_CANCELLED', `${baton.kind} ${baton.id} was declined or withdrawn`, { details });
  }
  if (baton.status === 'expired') throw expiredError(baton);
}

export function expiredError(baton: Baton): ColonyError {
  return new ColonyError(
    'HANDOFF_EXPIRED',
    `${baton.kind} ${baton.id} expired at ${new Date(baton.expiresAt).toISOString()}`,
    {
      details: { status: 'expired', expires_at: baton.expiresAt },
    },
  );
}

/** Refuses a session the baton is not for. The sender passes only where `allowSender` says so. */
export function assertTarget(baton: Baton, participant: Participant, allowSender: boolean): void {
  if (participant.sessionId === baton.fromSessionId) {
    if (allowSender) return;
    throw new ColonyError('NOT_TARGET_SESSION', `session "${participant.sessionId}" sent ${baton.kind} ${baton.id}`, {
      details: { from_session_id: baton.fromSessionId },
    });
  }
  if (baton.toSessionId !== null && baton.toSessionId !== participant.sessionId) {
    throw new ColonyError(
      'NOT_TARGET_SESSION',
      `${baton.kind} ${baton.id} is for session "${baton.toSessionId}", not "${participant.sessionId}"`,
      { details: { to_session_id: baton.toSessionId } },
    );
  }
  if (!targetsAgent(baton.toAgent, participant.agent)) {
    throw new ColonyError(
      'NOT_TARGET_AGENT',
      `${baton.kind} ${baton.id} is for ${baton.toAgent}, not ${participant.agent}`,
      { details: { to_agent: baton.toAgent, agent: participant.agent } },
    );
  }
}

/** Files the baton transfers, repo-relative, as stored in its payload. */
export function transferredFiles(baton: Baton): string[] {
  const files = baton.payload.transferred_files;
  return Array.isArray(files) ? files.filter((f): f is string => typeof f === 'string') : [];
}

const idKey = (baton: Baton) => `${baton.kind}_observation_id`;

/**
 * Marks a pending baton expired and weakens its pending claims, with a
 * `<kind>_expired` observation by `actorSessionId`. Returns the weakened files, or
 * null when the baton was no longer pending.
 */
export async function expireBaton(ctx: DomainContext, baton: Baton, actorSessionId: string): Promise<string[] | null> {
  const now = ctx.clock.now();
  if (
    !(await resolveBaton(ctx.store, baton.id, {
      status: 'expired',
      now,
      bySessionId: actorSessionId,
      reason: 'expired',
    }))
  ) {
    return null;
  }
  const claims = await pendingClaimsOfBaton(ctx.store, baton.id);
  await weakenClaims(
    ctx.store,
    claims.map((c) => c.id),
  );
  const files = claims.map((c) => c.filePath);
  await appendObservation(ctx, {
    sessionId: actorSessionId,
    taskId: baton.taskId,
    kind: `${baton.kind}_expired`,
    content: `${baton.kind} #${baton.id} expired; ${files.length} pending claim(s) weakened`,
    metadata: { [idKey(baton)]: baton.id, weak_expired_files: files },
    replyTo: baton.id,
  });
  return files;
}

/**
 * Accepts a pending baton for `acceptor`: the sender's live claims on the transferred
 * files end, the acceptor holds an active claim on each, and `auditKind` records it.
 * Returns the files now claimed.
 */
export async function acceptBaton(
  ctx: DomainContext,
  baton: Baton,
  acceptor: Participant,
  auditKind: string,
): Promise<string[]> {
  const now = ctx.clock.now();
  if (!(await resolveBaton(ctx.store, baton.id, { status: 'accepted', now, bySessionId: acceptor.sessionId }))) {
    // Unreachable while writes are BEGIN IMMEDIATE; the guard keeps it true for any store.
    assertPending((await getBaton(ctx.store, baton.id)) ?? baton);
  }
  const files = transferredFiles(baton);
  await releaseLiveClaims(ctx.store, baton.taskId, baton.fromSessionId, files);
  const observationId = await appendObservation(ctx, {
    sessionId: acceptor.sessionId,
    taskId: baton.taskId,
    kind: auditKind,
    content: `accepted ${baton.kind} #${baton.id} from ${baton.fromSessionId}; claimed ${files.length} file(s)`,
    metadata: { [idKey(baton)]: baton.id, from_session_id: baton.fromSessionId, claimed_files: files },
    replyTo: baton.id,
  });
  for (const filePath of files) {
    const own = await findLiveClaim(ctx.store, baton.taskId, filePath, acceptor.sessionId);
    if (own) await refreshClaim(ctx.store, own.id, { now, observationId });
    else {
      await insertClaim(
        ctx.store,
        {
          taskId: baton.taskId,
          filePath,
          sessionId: acceptor.sessionId,
          agent: acceptor.agent,
          observationId,
          note: `from ${baton.kind} #${baton.id}`,
        },
        now,
      );
    }
  }
  return files;
}

/**
 * Cancels a pending baton. A declined handoff gives the sender its claims back; a
 * declined relay leaves them weak_expired, since its sender is presumed gone.
 */
export async function cancelBaton(
  ctx: DomainContext,
  baton: Baton,
  by: Participant,
  reason: string | undefined,
): Promise<void> {
  const now = ctx.clock.now();
  if (
    !(await resolveBaton(ctx.store, baton.id, {
      status: 'cancelled',
      now,
      bySessionId: by.sessionId,
      reason: reason ?? null,
    }))
  ) {
    assertPending((await getBaton(ctx.store, baton.id)) ?? baton);
  }
  const settled = settlePendingClaims(ctx.store, baton.id, baton.kind === 'relay' ? 'weak_expired' : 'active');
  const withdrawn = by.sessionId === baton.fromSessionId;
  await appendObservation(ctx, {
    sessionId: by.sessionId,
    taskId: baton.taskId,
    kind: `${baton.kind}_declined`,
    content: `${withdrawn ? 'withdrew' : 'declined'} ${baton.kind} #${baton.id}${reason ? `: ${reason}` : ''}`,
    metadata: { [idKey(baton)]: baton.id, withdrawn, settled_claims: settled, ...(reason ? { reason } : {}) },
    replyTo: baton.id,
  });
}

/**
 * @module claims/claim-service
 * File claims: a session says it is editing a file of its task's repository, so others
 * see the overlap before they collide. Claims are warnings, never locks: claiming
 * always succeeds for a participant, and reports who else holds the file. The claim row
 * and its `claim` observation are written in one transaction.
 */
import {
  claimsOnRepoFile,
  editedFilesSince,
  findLiveClaim,
  insertClaim,
  type RepoClaim,
  refreshClaim,
  sessionClaims,
} from '@swarm/storage';
import type {
  ClaimBackend,
  ClaimFileResult,
  ClaimOverlap,
  DriftCheckResult,
  TaskClaimFileInput,
  TaskDriftCheckInput,
} from '@swarm/tools';
import { withBudget } from '../budget';
import { appendObservation, type DomainContext, requireParticipant, requireTask } from '../context';
import { normalizeRepoPath } from '../repo-paths';
import { claimAgeClass, isOwnership } from './age';

export const CLAIM_KIND = 'claim';
/** Most other claims on a file read per claim call; older history is not worth a warning. */
const OVERLAP_SCAN = 50;
const WEAK_STALE_SHOWN = 5;

export class ClaimService implements ClaimBackend {
  readonly #ctx: DomainContext;

  constructor(ctx: DomainContext) {
    this.#ctx = ctx;
  }

  claimFile(args: TaskClaimFileInput): Promise<ClaimFileResult> {
    const ctx = this.#ctx;
    return ctx.store.write(async () => {
      const task = await requireTask(ctx, args.task_id);
      const participant = await requireParticipant(ctx, task, args.session_id);
      const filePath = normalizeRepoPath(task.repoRoot, args.file_path);
      const now = ctx.clock.now();
      const own = await findLiveClaim(ctx.store, task.id, filePath, args.session_id);
      const observationId = await appendObservation(ctx, {
        sessionId: args.session_id,
        taskId: task.id,
        kind: CLAIM_KIND,
        content: args.note ? `claim ${filePath}: ${args.note}` : `claim ${filePath}`,
        metadata: { file_path: filePath, refreshed: own !== undefined, ...(args.note ? { note: args.note } : {}) },
      });
      if (own) await refreshClaim(ctx.store, own.id, { now, observationId, note: args.note ?? null });
      else {
        await insertClaim(
          ctx.store,
          {
            taskId: task.id,
            filePath,
            sessionId: args.session_id,
            agent: participant.agent,
            observationId,
            note: args.note ?? null,
          },
          now,
        );
      }
      const others = (await claimsOnRepoFile(ctx.store, task.repoRoot, filePath, OVERLAP_SCAN)).filter(
        (c) => c.sessionId !== args.session_id,
      );
      return { observation_id: observationId, ...overlapReport(filePath, others, now) };
    });
  }

  driftCheck(args: TaskDriftCheckInput): Promise<DriftCheckResult> {
    const ctx = this.#ctx;
    return ctx.store.read(async () => {
      // An unknown session holds no claims: it is answered like any other, not refused.
      const task = await requireTask(ctx, args.task_id);
      const now = ctx.clock.now();
      const claimed = sortedUnique(
        (await sessionClaims(ctx.store, task.id, args.session_id, ['active'])).map((c) => c.filePath),
      );
      const edited = sortedUnique(
        (await editedFilesSince(ctx.store, task.id, args.session_id, now - args.window_minutes * 60_000)).map(
          (e) => e.filePath,
        ),
      );
      const claimedSet = new Set(claimed);
      const editedSet = new Set(edited);
      const editsWithoutClaim = edited.filter((f) => !claimedSet.has(f));
      const claimsWithoutEdits = claimed.filter((f) => !editedSet.has(f));
      const drift = editsWithoutClaim.length > 0;
      const files = new Set([...claimed, ...edited]).size;
      const payload: Omit<DriftCheckResult, 'budget'> = {
        generated_at: now,
        task_id: task.id,
        session_id: args.session_id,
        window_minutes: args.window_minutes,
        claimed_files: claimed,
        edited_files: edited,
        edits_without_claim: editsWithoutClaim,
        claims_without_edits: claimsWithoutEdits,
        drift_score: editsWithoutClaim.length / Math.max(1, edited.length),
        recommendation: recommend(editsWithoutClaim, claimsWithoutEdits, args.window_minutes),
        next_tool: drift ? 'task_claim_file' : null,
        next_args: drift
          ? editsWithoutClaim.map((file) => ({ session_id: args.session_id, task_id: task.id, file_path: file }))
          : null,
      };
      return withBudget(payload, { available: files, returned: files, hydrate_with: 'task_timeline' }, ctx.tokens);
    });
  }
}

/** Others' claims on the file, newest per session and task, split into ownership and history. */
function overlapReport(filePath: string, others: readonly RepoClaim[], now: number): Partial<ClaimFileResult> {
  const seen = new Set<string>();
  const overlaps: ClaimOverlap[] = [];
  const weakStale: ClaimOverlap[] = [];
  for (const claim of others) {
    const key = `${claim.sessionId}\u0000${claim.taskId}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const ageClass = claimAgeClass(claim, now);
    if (ageClass === null) continue;
    const entry = {
      session_id: claim.sessionId,
      agent: claim.agent,
      task_id: claim.taskId,
      claimed_at: claim.claimedAt,
      age_class: ageClass,
    };
    if (isOwnership(ageClass)) overlaps.push(entry);
    else if (weakStale.length < WEAK_STALE_SHOWN) weakStale.push(entry);
  }
  const report: Partial<ClaimFileResult> = {};
  if (overlaps.length > 0) {
    const who = overlaps.map((o) => `${o.session_id} (${o.agent}, ${o.age_class})`).join(', ');
    report.warning = `${filePath} is also claimed by ${who}. Claims are warnings, not locks: coordinate before editing.`;
    report.overlaps = overlaps;
  }
  if (weakStale.length > 0) report.weak_stale = weakStale;
  return report;
}

function recommend(
  editsWithoutClaim: readonly string[],
  claimsWithoutEdits: readonly string[],
  window: number,
): string {
  const parts: string[] = [];
  if (editsWithoutClaim.length > 0) {
    parts.push(
      `Claim ${editsWithoutClaim.length} file(s) edited without an active claim: ${editsWithoutClaim.join(', ')}.`,
    );
  }
  if (claimsWithoutEdits.length > 0) {
    parts.push(
      `Release or revisit ${claimsWithoutEdits.length} claim(s) with no recent edits: ${claimsWithoutEdits.join(', ')}.`,
    );
  }
  if (parts.length === 0) return `No drift: every edit of the last ${window} minutes is covered by an active claim.`;
  return parts.join(' ');
}

function sortedUnique(values: readonly string[]): string[] {
  return [...new Set(values)].sort();
}

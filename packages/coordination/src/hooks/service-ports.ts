/**
 * @module hooks/service-ports
 * The hooks' ports, backed by the services that own each kind of item, so what a
 * hook shows or does is exactly what their tools would:
 * - messages: unread blocking and needs_reply (MessageService.urgentUnread, blocking
 *   first) with the reply call the inbox suggests, and a count of unread fyi;
 * - handoffs and relays waiting for the session (BatonService.pendingFor) with their
 *   accept and decline calls;
 * - fresh claims other sessions hold on the session's threads (ownership by the
 *   claims' own age rule), files the session itself claimed or edited first;
 * - claiming before an edit: ClaimService.claimFile, task_claim_file's semantics.
 */
import { editedFilesSince, getBaton, othersLiveClaims, sessionClaims } from '@swarm/storage';
import type { MessageEntry } from '@swarm/tools';
import { mapInOrder } from '../_in-order';
import type { BatonService, PendingBaton } from '../batons/baton-service';
import { claimAgeClass, isOwnership } from '../claims/age';
import type { ClaimService } from '../claims/claim-service';
import type { DomainContext } from '../context';
import type { MessageService } from '../messages/message-service';
import type {
  Attention,
  AttentionMessage,
  AttentionPort,
  AttentionQuery,
  ClaimPort,
  OthersClaim,
  PendingHandoff,
} from './attention';

/** Most items read for one preface; it shows a handful and counts the rest. */
const SCAN = 200;
const URGENT_SCAN = 20;
/** Files the session edited this recently count as its own for the claims section. */
const RECENT_EDITS_MS = 60 * 60_000;

export interface AttentionServices {
  readonly messages: MessageService;
  readonly batons: BatonService;
}

export function serviceAttention(ctx: DomainContext, services: AttentionServices): AttentionPort {
  return {
    async read(query: AttentionQuery): Promise<Attention> {
      // At or after: an item stamped the very millisecond of the last look is shown again, never missed.
      const isNew = (ts: number) => query.since === undefined || ts >= query.since;
      const messages = (
        await services.messages.urgentUnread({ sessionId: query.sessionId, agent: query.agent, limit: URGENT_SCAN })
      )
        .filter((m) => isNew(m.ts))
        .map(toAttentionMessage);
      const fyiUnread = (
        await services.messages.list({
          session_id: query.sessionId,
          agent: query.agent,
          unread_only: true,
          limit: SCAN,
          ...(query.since === undefined ? {} : { since_ts: query.since }),
        })
      ).filter((m) => m.urgency === 'fyi').length;
      const pending = await services.batons.pendingFor(query.sessionId, URGENT_SCAN);
      const created = await mapInOrder(pending, async (b) => (await getBaton(ctx.store, b.id))?.createdAt ?? 0);
      const handoffs = pending.filter((_, i) => isNew(created[i] ?? 0)).map(toPendingHandoff);
      return { handoffs, messages, fyiUnread, claims: await othersFreshClaims(ctx, query) };
    },
  };
}

/** Pre-tool-use claims through ClaimService: the file is claimed, overlaps come back as conflicts. */
export function serviceClaims(claims: ClaimService): ClaimPort {
  return {
    async claim(request) {
      const result = await claims.claimFile({
        task_id: request.taskId,
        session_id: request.sessionId,
        file_path: request.filePath,
      });
      return {
        conflicts: (result.overlaps ?? []).map((o) => ({
          taskId: o.task_id,
          filePath: request.filePath,
          sessionId: o.session_id,
          agent: o.agent,
          claimedAt: o.claimed_at,
        })),
      };
    },
  };
}

/** Others' fresh claims on the session's threads; files the session touched too come first. */
async function othersFreshClaims(ctx: DomainContext, query: AttentionQuery): Promise<OthersClaim[]> {
  const now = ctx.clock.now();
  const live = (await othersLiveClaims(ctx.store, query.taskIds, query.sessionId, SCAN)).filter((c) =>
    isOwnership(claimAgeClass(c, now)),
  );
  if (live.length === 0) return [];
  const mine = new Set<string>();
  for (const taskId of new Set(live.map((c) => c.taskId))) {
    for (const c of await sessionClaims(ctx.store, taskId, query.sessionId, ['active', 'handoff_pending'])) {
      mine.add(`${taskId}\u0000${c.filePath}`);
    }
    for (const e of await editedFilesSince(ctx.store, taskId, query.sessionId, now - RECENT_EDITS_MS)) {
      mine.add(`${taskId}\u0000${e.filePath}`);
    }
  }
  const claims = live.map((c) => ({
    taskId: c.taskId,
    filePath: c.filePath,
    sessionId: c.sessionId,
    agent: c.agent,
    claimedAt: c.refreshedAt,
    alsoYours: mine.has(`${c.taskId}\u0000${c.filePath}`),
  }));
  // Stable: within each group the newest claim stays first.
  return [...claims.filter((c) => c.alsoYours), ...claims.filter((c) => !c.alsoYours)];
}

function toAttentionMessage(entry: MessageEntry): AttentionMessage {
  return {
    id: entry.id,
    taskId: entry.task_id,
    fromAgent: entry.from_agent,
    fromSessionId: entry.from_session_id,
    urgency: entry.urgency === 'blocking' ? 'blocking' : 'needs_reply',
    preview: entry.preview,
    createdAt: entry.ts,
    reply: { tool: entry.reply_tool, args: { ...entry.suggested_reply_args } },
  };
}

function toPendingHandoff(baton: PendingBaton): PendingHandoff {
  return {
    id: baton.id,
    kind: baton.kind,
    taskId: baton.task_id,
    fromAgent: baton.from_agent,
    fromSessionId: baton.from_session_id,
    summary: baton.summary,
    expiresAt: baton.expires_at,
    accept: baton.accept_with,
    decline: baton.decline_with,
  };
}

/**
 * @module framework/work-queue
 * The seed-000 coordinator queue over `queue_items`. Each call is one write
 * transaction (BEGIN IMMEDIATE): the read that explains a refusal and the guarded
 * UPDATE that takes, completes or extends an item see the same state, in whichever
 * process they run. The agent name is the holder. High-volume by design, so no
 * observation per call: the row keeps holder, lease, attempts and completion.
 */
import {
  completeQueueItem,
  extendQueueLease,
  getQueueItem,
  insertQueueItem,
  leaseQueueItem,
  type QueueItem,
  queueCounts,
  queueFront,
  takeNextQueueItem,
} from '@swarm/storage';
import {
  ColonyError,
  type CoordClaimInput,
  type CoordCompleteInput,
  type CoordEnqueueInput,
  type CoordExtendInput,
  type CoordNextInput,
  type QueueItemView,
  type QueueStatusResult,
} from '@swarm/tools';
import type { DomainContext } from '../context';
import { currentPhase } from './shared-context';

export async function enqueue(
  ctx: DomainContext,
  args: CoordEnqueueInput,
): Promise<{ enqueued: true; id: string; kind: string }> {
  const id = await ctx.store.write(() =>
    insertQueueItem(
      ctx.store,
      { kind: args.kind, payload: JSON.stringify(args.payload), enqueuedBy: args.agent },
      ctx.clock.now(),
    ),
  );
  return { enqueued: true, id: String(id), kind: args.kind };
}

export async function next(ctx: DomainContext, args: CoordNextInput): Promise<{ item: QueueItemView | null }> {
  const now = ctx.clock.now();
  const item = await ctx.store.write(() =>
    takeNextQueueItem(ctx.store, { agent: args.agent, now, leaseUntil: now + args.lease_sec * 1000 }),
  );
  return { item: item ? view(item) : null };
}

export function status(ctx: DomainContext): Promise<QueueStatusResult> {
  return ctx.store.read(async () => {
    const now = ctx.clock.now();
    const counts = await queueCounts(ctx.store, now);
    const front = await queueFront(ctx.store, now);
    return {
      length: counts.queued,
      front: front
        ? { id: String(front.id), kind: front.kind, payload: JSON.parse(front.payload), status: 'queued' as const }
        : null,
      counts: { queued: counts.queued, claimed: counts.claimed, done: counts.done },
      phase: await currentPhase(ctx),
    };
  });
}

export function claim(ctx: DomainContext, args: CoordClaimInput) {
  const now = ctx.clock.now();
  return ctx.store.write(async () => {
    const item = await requireOpenItem(ctx, args.id);
    const leased = await leaseQueueItem(ctx.store, item.id, {
      agent: args.agent,
      now,
      leaseUntil: now + args.lease_sec * 1000,
    });
    if (!leased) {
      throw new ColonyError(
        'ALREADY_CLAIMED',
        `item ${args.id} is held by ${item.claimedBy} until ${item.leaseUntil}`,
        {
          details: { id: args.id, claimed_by: item.claimedBy, lease_until: item.leaseUntil },
        },
      );
    }
    return { id: args.id, kind: leased.kind, lease_until: leased.leaseUntil!, claimed_by: leased.claimedBy! };
  });
}

export function complete(ctx: DomainContext, args: CoordCompleteInput): Promise<{ id: string; status: 'done' }> {
  const result = JSON.stringify(args.result ?? null);
  return ctx.store.write(async () => {
    const item = await requireOpenItem(ctx, args.id);
    if (!(await completeQueueItem(ctx.store, item.id, args.agent, result, ctx.clock.now()))) throw notHeld(args, item);
    return { id: args.id, status: 'done' as const };
  });
}

export function extend(ctx: DomainContext, args: CoordExtendInput): Promise<{ id: string; lease_until: number }> {
  return ctx.store.write(async () => {
    const item = await requireOpenItem(ctx, args.id);
    const leaseUntil = Math.max(item.leaseUntil ?? 0, ctx.clock.now()) + args.extend_sec * 1000;
    if (!(await extendQueueLease(ctx.store, item.id, args.agent, leaseUntil))) throw notHeld(args, item);
    return { id: args.id, lease_until: leaseUntil };
  });
}

/** The item with this id, unless it is unknown (QUEUE_ITEM_NOT_FOUND) or done (QUEUE_ITEM_DONE). */
async function requireOpenItem(ctx: DomainContext, id: string): Promise<QueueItem> {
  const item = /^[1-9]\d{0,15}$/.test(id) ? await getQueueItem(ctx.store, Number(id)) : undefined;
  if (!item) throw new ColonyError('QUEUE_ITEM_NOT_FOUND', `work item ${id} not found`, { details: { id } });
  if (item.status === 'done')
    throw new ColonyError('QUEUE_ITEM_DONE', `work item ${id} is already done`, { details: { id } });
  return item;
}

function notHeld(args: { id: string; agent: string }, item: QueueItem): ColonyError {
  return new ColonyError(
    'LEASE_NOT_HELD',
    item.claimedBy === null
      ? `${args.agent} does not hold work item ${args.id}: take it with coord_next or coord_claim`
      : `${args.agent} does not hold work item ${args.id}: ${item.claimedBy} does`,
    { details: { id: args.id, claimed_by: item.claimedBy } },
  );
}

function view(item: QueueItem): QueueItemView {
  return {
    id: String(item.id),
    kind: item.kind,
    payload: JSON.parse(item.payload),
    lease_until: item.leaseUntil!,
    claimed_by: item.claimedBy!,
  };
}

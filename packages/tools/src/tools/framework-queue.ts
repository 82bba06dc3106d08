/**
 * @module tools/framework-queue
 * Seed 000 coordinator queue: a FIFO of work items handed out under leases. An item is
 * held by one agent at a time; a lease that runs out puts the item back at its place
 * in the queue. Safe across processes: every hand-out is a guarded update inside one
 * write transaction.
 */
import { z } from 'zod';
import { defineTool } from '../define-tool';
import { agentName, jsonObject, jsonValue } from '../schemas';

/** Lease length, seconds: at least 1, at most a day. */
const leaseSec = z.int().min(1).max(86_400);
const itemId = z.string().min(1).max(40);
const itemKind = agentName;

export const CoordEnqueueInput = z.strictObject({
  agent: agentName,
  kind: itemKind,
  payload: jsonObject.default({}),
});
export type CoordEnqueueInput = z.output<typeof CoordEnqueueInput>;

export interface QueueItemView {
  id: string;
  kind: string;
  payload: unknown;
  lease_until: number;
  claimed_by: string;
}

export interface QueueStatusResult {
  length: number;
  front: { id: string; kind: string; payload: unknown; status: 'queued' } | null;
  counts: { queued: number; claimed: number; done: number };
  phase: number;
}

export interface FrameworkQueueBackend {
  enqueue(args: CoordEnqueueInput): Promise<{ enqueued: true; id: string; kind: string }>;
  next(args: CoordNextInput): Promise<{ item: QueueItemView | null }>;
  status(args: CoordStatusInput): Promise<QueueStatusResult>;
  claim(args: CoordClaimInput): Promise<{ id: string; kind: string; lease_until: number; claimed_by: string }>;
  complete(args: CoordCompleteInput): Promise<{ id: string; status: 'done' }>;
  extend(args: CoordExtendInput): Promise<{ id: string; lease_until: number }>;
}

/** The part of ColonyBackend these tools call (backend.ts composes the whole). */
type Host = { readonly framework: { readonly queue: FrameworkQueueBackend } };

export const coordEnqueue = defineTool({
  name: 'coord_enqueue',
  title: 'Enqueue work',
  description: 'Enqueue a work item { kind, payload } for the swarm.',
  input: CoordEnqueueInput,
  surface: 'framework',
  mutates: true,
  hints: { destructive: false, idempotent: false },
  docs: {
    returns: '{ enqueued: true, id, kind }; id is a string.',
    errors: ['RATE_LIMITED'],
    example: { agent: 'Orchestrator', kind: 'scan_docs', payload: { dir: 'docs' } },
  },
  handler: (args, b: Host) => b.framework.queue.enqueue(args),
});

export const CoordNextInput = z.strictObject({ agent: agentName, lease_sec: leaseSec.default(180) });
export type CoordNextInput = z.output<typeof CoordNextInput>;

export const coordNext = defineTool({
  name: 'coord_next',
  title: 'Next work item',
  description: 'Take the oldest available work item under a lease (FIFO).',
  input: CoordNextInput,
  surface: 'framework',
  mutates: true,
  hints: { destructive: false, idempotent: false },
  docs: {
    returns:
      '{ item: { id, kind, payload, lease_until, claimed_by } | null }; lease_until is epoch ms, ' +
      'claimed_by your agent name.',
    errors: ['RATE_LIMITED'],
    notes:
      'Items whose lease ran out are available again, ahead of newer items. No item is held by two ' +
      'agents at once, across any number of processes. Finish with coord_complete, or keep it with ' +
      'coord_extend.',
    example: { agent: 'Gemini', lease_sec: 180 },
  },
  handler: (args, b: Host) => b.framework.queue.next(args),
});

export const CoordStatusInput = z.strictObject({ agent: agentName });
export type CoordStatusInput = z.output<typeof CoordStatusInput>;

export const coordStatus = defineTool({
  name: 'coord_status',
  title: 'Queue status',
  description: 'Peek at the queue: length, front item, counts and the current phase.',
  input: CoordStatusInput,
  surface: 'framework',
  mutates: false,
  docs: {
    returns:
      '{ length, front: { id, kind, payload, status } | null, counts: { queued, claimed, done }, phase ' +
      '}. Expired leases count as queued; phase is the number in shared-context key `phase` (0 when ' +
      'unset).',
    errors: ['RATE_LIMITED'],
    example: { agent: 'Orchestrator' },
  },
  handler: (args, b: Host) => b.framework.queue.status(args),
});

export const CoordClaimInput = z.strictObject({ agent: agentName, id: itemId, lease_sec: leaseSec.default(180) });
export type CoordClaimInput = z.output<typeof CoordClaimInput>;

export const coordClaim = defineTool({
  name: 'coord_claim',
  title: 'Claim work item',
  description: 'Claim a specific work item by id, with a lease.',
  input: CoordClaimInput,
  surface: 'framework',
  mutates: true,
  hints: { destructive: false, idempotent: false },
  docs: {
    returns: '{ id, kind, lease_until, claimed_by }. Claiming an item you hold renews its lease.',
    errors: ['QUEUE_ITEM_NOT_FOUND', 'QUEUE_ITEM_DONE', 'ALREADY_CLAIMED', 'RATE_LIMITED'],
    notes: 'ALREADY_CLAIMED carries claimed_by and lease_until of the live lease.',
    example: { agent: 'Gemini', id: '42', lease_sec: 300 },
  },
  handler: (args, b: Host) => b.framework.queue.claim(args),
});

export const CoordCompleteInput = z.strictObject({ agent: agentName, id: itemId, result: jsonValue.optional() });
export type CoordCompleteInput = z.output<typeof CoordCompleteInput>;

export const coordComplete = defineTool({
  name: 'coord_complete',
  title: 'Complete work item',
  description: 'Mark a work item you hold done, with an optional JSON result.',
  input: CoordCompleteInput,
  surface: 'framework',
  mutates: true,
  hints: { destructive: false, idempotent: false },
  docs: {
    returns: '{ id, status: "done" }.',
    errors: ['QUEUE_ITEM_NOT_FOUND', 'QUEUE_ITEM_DONE', 'LEASE_NOT_HELD', 'RATE_LIMITED'],
    notes:
      'Only the holder completes: an item handed to another agent after your lease ran out answers ' +
      'LEASE_NOT_HELD (claimed_by names the holder). A lease that ran out while nobody took the item ' +
      'still lets you complete it.',
    example: { agent: 'Gemini', id: '42', result: { ok: true } },
  },
  handler: (args, b: Host) => b.framework.queue.complete(args),
});

export const CoordExtendInput = z.strictObject({ agent: agentName, id: itemId, extend_sec: leaseSec });
export type CoordExtendInput = z.output<typeof CoordExtendInput>;

export const coordExtend = defineTool({
  name: 'coord_extend',
  title: 'Extend lease',
  description: 'Extend the lease of a work item you hold.',
  input: CoordExtendInput,
  surface: 'framework',
  mutates: true,
  hints: { destructive: false, idempotent: false },
  docs: {
    returns: '{ id, lease_until }: extend_sec added to the later of the current lease end and now.',
    errors: ['QUEUE_ITEM_NOT_FOUND', 'QUEUE_ITEM_DONE', 'LEASE_NOT_HELD', 'RATE_LIMITED'],
    example: { agent: 'Gemini', id: '42', extend_sec: 120 },
  },
  handler: (args, b: Host) => b.framework.queue.extend(args),
});

export const frameworkQueueTools = [coordEnqueue, coordNext, coordStatus, coordClaim, coordComplete, coordExtend];

/**
 * @module lanes/inbox-view
 * What startup cards read off an attention_inbox answer: the observation ids it listed,
 * the one blocker to show, and the few blocking items.
 */
import type { AttentionInbox, StartupPanelResult } from '@swarm/tools';
import { preview } from './lane';

/** The observation ids the inbox listed: handoffs, wakes, messages, blockers, stalled lanes. */
export function attentionIds(inbox: AttentionInbox): number[] {
  return [
    ...inbox.pending_handoffs.map((h) => h.id),
    ...inbox.unread_messages.map((m) => m.id),
    ...inbox.pending_wakes.map((w) => w.id),
    ...inbox.blockers.map((b) => b.id),
    ...inbox.stalled_lanes.map((l) => l.observation_id),
  ];
}

/** The first blocking message's preview, else the first open blocker's. */
export function blockerOf(inbox: AttentionInbox): string | null {
  const blocking = inbox.unread_messages.find((m) => m.urgency === 'blocking');
  if (blocking) return preview(blocking.preview, 80);
  const post = inbox.blockers[0];
  return post ? preview(post.preview, 80) : null;
}

/** Blocking messages, open blockers and pending handoffs, at most 3. */
export function blockingItems(inbox: AttentionInbox): StartupPanelResult['blocking_items'] {
  return [
    ...inbox.unread_messages
      .filter((m) => m.urgency === 'blocking')
      .map((m) => ({ kind: 'message' as const, id: m.id, task_id: m.task_id, preview: preview(m.preview, 80) })),
    ...inbox.blockers.map((b) => ({
      kind: 'blocker' as const,
      id: b.id,
      task_id: b.task_id,
      preview: preview(b.preview, 80),
    })),
    ...inbox.pending_handoffs.map((h) => ({
      kind: 'handoff' as const,
      id: h.id,
      task_id: h.task_id,
      preview: preview(h.summary, 80),
    })),
  ].slice(0, 3);
}

/**
 * @module runner/wake-source
 * Where the router learns of mail written by OTHER processes (the push covers this
 * one): a `WakeSource` calls `deliver(agent, urgent)` (urgent interrupts a Running
 * agent, other mail wakes an idle one) until stopped. On SQLite it is the indexed poll
 * of the unread inboxes (`pollWakeSource`, the router's default); on PostgreSQL,
 * `notifyWakeSource` (LISTEN/NOTIFY, with a slow safety poll).
 */
import type { Mailbox } from '../mailbox/mailbox.js';

/** Hands an agent its mail: urgent interrupts, other wakes. */
export type Deliver = (agent: string, urgent: boolean) => void;

export interface WakeSource {
  /** Starts delivering; the returned function stops it (no timer or connection left). */
  start(deliver: Deliver): () => Promise<void>;
}

export interface PollOptions {
  /** Between polls (ms). */
  readonly poll_ms: number;
  readonly log?: (line: string) => void;
}

/** Delivers what `mailbox.pending()` finds: the unread inboxes, urgent first. */
export async function deliverPending(mailbox: Pick<Mailbox, 'pending'>, deliver: Deliver): Promise<void> {
  const pending = await mailbox.pending();
  for (const to of pending.urgent) deliver(to, true);
  for (const to of pending.other) deliver(to, false);
}

/** The indexed poll: every `poll_ms`, the unread inboxes (one poll at a time). */
export function pollWakeSource(mailbox: Pick<Mailbox, 'pending'>, options: PollOptions): WakeSource {
  return {
    start(deliver) {
      let timer: ReturnType<typeof setTimeout> | null = null;
      let stopped = false;
      const tick = async () => {
        try {
          await deliverPending(mailbox, deliver);
        } catch (error) {
          options.log?.(`router: poll failed: ${(error as Error).message}`);
        }
        if (!stopped) timer = setTimeout(tick, options.poll_ms);
      };
      timer = setTimeout(tick, options.poll_ms);
      return async () => {
        stopped = true;
        if (timer) clearTimeout(timer);
      };
    },
  };
}

/**
 * @module runner/notify-wake-source
 * The PostgreSQL wake source: a LISTEN on `colony_wake` (subscribed through a port, so
 * the runtime never loads a driver; core passes @swarm/storage/pg's `listenForWakes`)
 * wakes the addressed agent at once: a notice naming one of this session's colony
 * sessions delivers to that agent (a `blocking` message interrupts; a question or a
 * handoff wakes), a message only on the session's thread, the one the mailbox reads
 * (elsewhere it would interrupt an agent whose next prompt cannot show it). A notice
 * addressed to no session, and every (re)connect of the
 * listener (`onResync`: notices sent while it was down are lost), re-reads the unread
 * inboxes; a slow safety poll does the same, for mail that triggers do not announce
 * (`fyi` messages) and for anything a notice missed.
 */
import type { Mailbox } from '../mailbox/mailbox.js';
import { deliverPending, pollWakeSource, type WakeSource } from './wake-source.js';

/** The fields of a wake notice the runtime reads (@swarm/storage/pg `WakeNotice`). */
export interface WakeNoticeLike {
  readonly kind: 'message' | 'handoff';
  readonly task_id: number;
  readonly to_session_id: string | null;
  readonly urgency: string | null;
}

export interface WakeFeed {
  onWake(notice: WakeNoticeLike): void;
  onResync(): void;
}

/** Starts listening; resolves to the subscription to close. */
export type WakeSubscribe = (feed: WakeFeed) => Promise<{ close(): Promise<void> }>;

export interface NotifyWakeOptions {
  readonly subscribe: WakeSubscribe;
  readonly mailbox: Pick<Mailbox, 'pending'>;
  /** The agent for a colony session id of this session, or undefined for someone else's. */
  readonly agentOf: (colony_session_id: string) => string | undefined;
  /** The session's task thread: a notice on it addressed to no session re-reads the inboxes. */
  readonly task_id?: number;
  /** The safety poll (ms); default 5000. */
  readonly safety_poll_ms?: number;
  readonly log?: (line: string) => void;
}

export function notifyWakeSource(options: NotifyWakeOptions): WakeSource {
  const safety = pollWakeSource(options.mailbox, { poll_ms: options.safety_poll_ms ?? 5000, log: options.log });
  return {
    start(deliver) {
      const stopPoll = safety.start(deliver);
      const repoll = () => {
        deliverPending(options.mailbox, deliver).catch((error: unknown) =>
          options.log?.(`router: re-read after a wake-up failed: ${(error as Error).message}`),
        );
      };
      const subscription = options
        .subscribe({
          onWake(notice) {
            const onThread = (options.task_id ?? notice.task_id) === notice.task_id;
            if (notice.to_session_id === null) {
              if (onThread) repoll();
              return;
            }
            const agent = options.agentOf(notice.to_session_id);
            // The mailbox reads the thread's messages only (as the poll does): mail on another would interrupt for nothing.
            if (agent === undefined || (notice.kind === 'message' && !onThread)) return;
            deliver(agent, notice.kind === 'message' && notice.urgency === 'blocking');
          },
          onResync: repoll,
        })
        .catch((error: unknown) => {
          options.log?.(`router: listening for wake-ups failed, polling only: ${(error as Error).message}`);
          return null;
        });
      return async () => {
        await stopPoll();
        await (await subscription)?.close();
      };
    },
  };
}

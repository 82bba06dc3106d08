/**
 * @module runtime/_wakes
 * The router's wake source by backend, chosen from where the store lives: a SQLite
 * file keeps the indexed poll of the unread inboxes (every `poll_ms`); a PostgreSQL
 * URL listens on `colony_wake` (@swarm/storage/pg's `listenForWakes`, loaded by dynamic
 * import only here, so a SQLite session never loads `pg`) and keeps a slow safety poll.
 */

import type { Mailbox } from '@swarm/runtime';
import { colonySessionId, notifyWakeSource, pollWakeSource, type WakeSource } from '@swarm/runtime';

export interface SessionWakesOptions {
  /** The store: a SQLite file path or a `postgres://` URL. */
  readonly store: string;
  readonly mailbox: Pick<Mailbox, 'pending'>;
  readonly session_id: string;
  readonly agents: readonly string[];
  /** The session's task thread. */
  readonly task_id: number;
  /** The SQLite poll (ms). */
  readonly poll_ms: number;
  /** The safety poll on PostgreSQL (ms); default 5000. */
  readonly safety_poll_ms?: number;
  readonly log: (line: string) => void;
}

export function sessionWakeSource(options: SessionWakesOptions): WakeSource {
  const { store, mailbox, log } = options;
  if (!/^postgres(ql)?:\/\//i.test(store)) return pollWakeSource(mailbox, { poll_ms: options.poll_ms, log });
  const agents = new Map(options.agents.map((a) => [colonySessionId(options.session_id, a), a]));
  return notifyWakeSource({
    mailbox,
    task_id: options.task_id,
    agentOf: (sid) => agents.get(sid),
    log,
    ...(options.safety_poll_ms !== undefined ? { safety_poll_ms: options.safety_poll_ms } : {}),
    subscribe: async (feed) => {
      const { listenForWakes } = await import('@swarm/storage/pg');
      return listenForWakes(store, feed.onWake, {
        onResync: feed.onResync,
        onError: (problem) => log(`router: wake-ups: ${problem.code}: ${problem.message}`),
      });
    },
  });
}

/**
 * @module runner/registry
 * The agent registry and the router (seed 003 `AgentRegistry`, `router`). The registry
 * holds every runner by unique name: states, interrupt, wake, shutdown (OperatorStop to
 * all, then wait). The router delivers mail: a message written in this process is
 * pushed at once (urgent interrupts a Running recipient, any message wakes an idle
 * one), and a poll of the unread inboxes catches writers in other processes (the CLI,
 * IDE agents) the same way: urgent mail interrupts, other mail wakes. That poll is
 * the default `WakeSource`; on PostgreSQL a LISTEN/NOTIFY one replaces it (wake-source.ts).
 */
import type { Mailbox } from '../mailbox/mailbox.js';
import type { AgentRunner, AgentSnapshot } from './runner.js';
import { pollWakeSource, type WakeSource } from './wake-source.js';

export class AgentRegistry {
  private readonly runners = new Map<string, AgentRunner>();

  register(runner: AgentRunner): void {
    if (this.runners.has(runner.name)) throw new Error(`agent ${runner.name} is already registered`);
    this.runners.set(runner.name, runner);
  }

  get(name: string): AgentRunner | undefined {
    return this.runners.get(name);
  }

  names(): string[] {
    return [...this.runners.keys()];
  }

  states(): AgentSnapshot[] {
    return [...this.runners.values()].map((r) => r.snapshot());
  }

  /** Starts every agent; resolves when all are Stopped. */
  startAll(): Promise<void> {
    return Promise.all([...this.runners.values()].map((r) => r.start())).then(() => undefined);
  }

  allStopped(): boolean {
    return [...this.runners.values()].every((r) => r.snapshot().state === 'Stopped');
  }

  /** OperatorStop to every agent; resolves once all are Stopped. */
  async shutdown(reason = 'operator stop'): Promise<void> {
    await Promise.all([...this.runners.values()].map((r) => r.stop(reason)));
  }
}

export interface RouterOptions {
  /** The cross-process poll of unread messages (ms); default 100; null = push only. Ignored with `wakes`. */
  readonly poll_ms?: number | null;
  /** Where mail from other processes is learnt of; default the poll (`pollWakeSource`). */
  readonly wakes?: WakeSource;
  readonly log?: (line: string) => void;
}

export interface Router {
  stop(): void;
}

export function startRouter(registry: AgentRegistry, mailbox: Mailbox, options: RouterOptions = {}): Router {
  const deliver = (to: string, urgent: boolean) => {
    const runner = registry.get(to);
    if (!runner) return;
    if (urgent) {
      if (runner.interrupt()) options.log?.(`router: interrupted ${to} for an urgent message`);
    } else runner.wake();
  };
  const unsubscribe = mailbox.onMessage(deliver);
  const poll_ms = options.poll_ms === undefined ? 100 : options.poll_ms;
  const wakes = options.wakes ?? (poll_ms === null ? null : pollWakeSource(mailbox, { poll_ms, log: options.log }));
  const stopWakes = wakes?.start(deliver);
  return {
    stop() {
      unsubscribe();
      stopWakes?.().catch((error: unknown) => options.log?.(`router: stopping wake-ups: ${(error as Error).message}`));
    },
  };
}

/**
 * @module mailbox/mailbox
 * What the runtime needs of a mailbox (seed 003's messaging, on colony's store in the
 * product): send, consume (read every pending message for an agent and mark it read,
 * in one step), and a push when an urgent message is written, so the router interrupts
 * a running agent without polling. Urgent = colony urgency `blocking`; `needs_reply`
 * marks a question (ask_user). `memoryMailbox` is the in-process implementation used by
 * tests, the bench and the scripted demo; the colony one lives with the composition.
 */
import type { PromptMessage } from '../prompt/prompt-context.js';

export interface OutgoingMessage {
  readonly from: string;
  /** An agent name or `operator`. */
  readonly to: string;
  readonly body: string;
  readonly urgent?: boolean;
  readonly needs_reply?: boolean;
}

/** Told of every message written in this process (urgent or not), so the router can push. */
export type MessageListener = (recipient: string, urgent: boolean) => void;

export interface Mailbox {
  send(message: OutgoingMessage): Promise<void>;
  /** Every pending message for `agent`, oldest first, now marked read (one transaction). */
  consume(agent: string): Promise<PromptMessage[]>;
  /** Called when a message for someone is written in this process; returns the unsubscribe. */
  onMessage(listener: MessageListener): () => void;
  /** Recipients with unread urgent mail (the cross-process poll; may be empty when push covers all). */
  pendingUrgent(): Promise<string[]>;
  /**
   * Recipients with unread mail, urgent or not (the router's cross-process poll: urgent
   * interrupts, other mail wakes an idle agent, as the push does for writers in this process).
   */
  pending(): Promise<PendingMail>;
}

export interface PendingMail {
  readonly urgent: readonly string[];
  /** Recipients with unread mail none of which is urgent. */
  readonly other: readonly string[];
}

export const OPERATOR = 'operator';

export class MailboxError extends Error {}

export interface StoredMessage extends PromptMessage {
  readonly to: string;
  readonly needs_reply: boolean;
  read: boolean;
}

export interface MemoryMailbox extends Mailbox {
  readonly messages: readonly StoredMessage[];
}

export function memoryMailbox(now: () => number): MemoryMailbox {
  const messages: StoredMessage[] = [];
  const listeners = new Set<MessageListener>();
  return {
    messages,
    async send(message) {
      if (message.from === message.to) throw new MailboxError('agent cannot send a message to itself');
      messages.push({
        from: message.from,
        to: message.to,
        body: message.body,
        urgent: message.urgent === true,
        needs_reply: message.needs_reply === true,
        sent_at: now(),
        read: false,
      });
      for (const listener of listeners) listener(message.to, message.urgent === true);
    },
    async consume(agent) {
      const out: PromptMessage[] = [];
      for (const m of messages) {
        if (m.to !== agent || m.read) continue;
        m.read = true;
        out.push({ from: m.from, body: m.body, urgent: m.urgent, sent_at: m.sent_at });
      }
      return out;
    },
    onMessage(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async pendingUrgent() {
      return [...new Set(messages.filter((m) => m.urgent && !m.read).map((m) => m.to))];
    },
    async pending() {
      const urgent = new Set(messages.filter((m) => m.urgent && !m.read).map((m) => m.to));
      const other = new Set(messages.filter((m) => !m.read && !urgent.has(m.to)).map((m) => m.to));
      return { urgent: [...urgent], other: [...other] };
    },
  };
}

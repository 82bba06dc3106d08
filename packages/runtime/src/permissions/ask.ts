/**
 * @module permissions/ask
 * What an `ask` decision does when no operator sits at a terminal (inventory 1.28 #21):
 * a `needs_reply` message to the operator through the mailbox (colony's messages in a
 * session), then a wait of `timeout_ms`; with no approval in time the call is denied.
 * An optional `answer` poll lets a composition read the operator's reply (the session
 * reads `allow` / `deny` messages from the operator, see operator-reply.ts); without one
 * the wait always ends in a deny. An aborted signal ends the wait at once (deny).
 */
import { type Mailbox, OPERATOR } from '../mailbox/mailbox.js';

export interface AskRequest {
  readonly agent: string;
  readonly tool: string;
  /** `Tool(primary input)` as a human reads it. */
  readonly call: string;
  readonly reason: string;
  readonly signal: AbortSignal;
}

export interface AskAnswer {
  readonly approved: boolean;
  readonly reason: string;
}

/** Asks for approval of one call; never throws. */
export type Asker = (request: AskRequest) => Promise<AskAnswer>;

export const DEFAULT_ASK_TIMEOUT_MS = 60_000;

export interface MailboxAskerOptions {
  readonly mailbox: Mailbox;
  readonly timeout_ms?: number;
  /**
   * Polled every `poll_ms` while waiting, with the time the request was sent (`now`):
   * true or an approved answer approves, false or a refused one refuses, null keeps waiting.
   */
  readonly answer?: (request: AskRequest, asked_at: number) => Promise<boolean | AskAnswer | null>;
  readonly poll_ms?: number;
  /** The clock `asked_at` is read from (the store's clock in a session); default Date.now. */
  readonly now?: () => number;
}

export function mailboxAsker(options: MailboxAskerOptions): Asker {
  const timeout = options.timeout_ms ?? DEFAULT_ASK_TIMEOUT_MS;
  return async (request) => {
    const secs = Math.round(timeout / 1000);
    const body = `permission request: ${request.agent} wants to run ${request.call} (${request.reason}). Without an approval within ${secs}s it is denied.`;
    const asked_at = (options.now ?? Date.now)();
    try {
      await options.mailbox.send({ from: request.agent, to: OPERATOR, body, needs_reply: true });
    } catch (error) {
      return { approved: false, reason: `could not ask the operator (${(error as Error).message}); denied` };
    }
    const deadline = performance.now() + timeout;
    while (performance.now() < deadline && !request.signal.aborted) {
      const wait = Math.min(options.answer ? (options.poll_ms ?? 1000) : timeout, deadline - performance.now());
      await abortableSleep(wait, request.signal);
      if (!options.answer || request.signal.aborted) continue;
      const answer = await options.answer(request, asked_at).catch(() => null);
      if (typeof answer === 'boolean')
        return { approved: answer, reason: answer ? 'approved by the operator' : 'refused by the operator' };
      if (answer !== null) return answer;
    }
    if (request.signal.aborted) return { approved: false, reason: 'aborted while waiting for the operator; denied' };
    return { approved: false, reason: `no operator approval within ${secs}s (needs_reply sent); denied` };
  };
}

function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, Math.max(0, ms));
    signal.addEventListener('abort', done, { once: true });
  });
}

/**
 * @module permissions/operator-reply
 * How the operator answers an `ask` in a session: a message to the asking agent (e.g.
 * `colony swarm send backend allow`) whose first word is an approval (`allow`, `approve`,
 * `approved`, `yes`) or a refusal (`deny`, `denied`, `refuse`, `no`), case and trailing
 * punctuation ignored. A refusal's whole text is the reason the model reads. Only a
 * message from the operator written after the request counts; it is marked read so it
 * never reaches the agent's prompt. Any other message stays unread for the next prompt.
 */
import { OPERATOR } from '../mailbox/mailbox.js';
import type { AskAnswer, AskRequest } from './ask.js';

export const ALLOW_WORDS = ['allow', 'approve', 'approved', 'yes'] as const;
export const DENY_WORDS = ['deny', 'denied', 'refuse', 'no'] as const;

/** The answer a reply body gives, or null when it is not one. */
export function readOperatorReply(body: string): AskAnswer | null {
  const text = body.trim();
  const word = (text.split(/\s+/)[0] ?? '').toLowerCase().replace(/[^a-z]+$/, '');
  if ((ALLOW_WORDS as readonly string[]).includes(word)) return { approved: true, reason: 'approved by the operator' };
  if ((DENY_WORDS as readonly string[]).includes(word))
    return { approved: false, reason: `denied by the operator: ${text}` };
  return null;
}

/** Takes (marks read) the first unread message to `agent` from `from` at or after `since` that `accept` takes. */
export type TakeMessage = (
  agent: string,
  filter: { readonly from: string; readonly since: number; readonly accept: (body: string) => boolean },
) => Promise<string | null>;

/** The `answer` poll of `mailboxAsker` that reads the operator's reply through `take`. */
export function operatorAnswer(
  take: TakeMessage,
): (request: AskRequest, asked_at: number) => Promise<AskAnswer | null> {
  return async (request, asked_at) => {
    const accept = (body: string) => readOperatorReply(body) !== null;
    const body = await take(request.agent, { from: OPERATOR, since: asked_at, accept });
    return body === null ? null : readOperatorReply(body);
  };
}

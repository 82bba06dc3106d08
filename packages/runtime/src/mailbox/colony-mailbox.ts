/**
 * @module mailbox/colony-mailbox
 * The mailbox on colony's store, through the tool interface only (the calls an IDE
 * agent makes). Every runtime agent is a colony session (`swarm-<session>-<agent>`,
 * agent = its name) and so is the operator (`operator`); all join the task thread of
 * the repository's base branch, so IDE agents see them in hivemind and can message
 * them. A message is a directed `task_message` (urgent = `blocking`, a question =
 * `needs_reply`, else `fyi`); consuming lists the unread inbox, reads the bodies with
 * `get_observations` and marks them all read in ONE transaction through `markRead`
 * (the composition's batched path; a failure leaves every one unread for the next
 * prompt). A message retracted or expired in between is left out. The push reaches
 * the router at once for messages written in this process; the router's poll reads the
 * unread inboxes for writers elsewhere (IDE agents, the CLI): `blocking` mail
 * interrupts, other mail wakes an idle agent. `takeMessage` reads one chosen message
 * (the operator's answer to a permission `ask`) and marks only it read.
 */
import type { ToolCaller } from '../loop/tool-caller.js';
import type { TakeMessage } from '../permissions/operator-reply.js';
import type { PromptMessage } from '../prompt/prompt-context.js';
import { colonySessionId } from '../session/identity.js';
import { type Mailbox, MailboxError, type MessageListener, OPERATOR, type PendingMail } from './mailbox.js';

export interface ColonyMailboxOptions {
  readonly caller: ToolCaller;
  readonly repo_root: string;
  readonly branch: string;
  readonly session_id: string;
  /** Every agent of the session (the supervisor included). */
  readonly agents: readonly string[];
  /** Marks every id read for the reader in one transaction; answers the ids this call read. */
  readonly markRead: MarkAllRead;
}

/** The batched read-marking port (core: MessageService.markReadAll in one store write). */
export type MarkAllRead = (args: {
  readonly session_id: string;
  readonly task_id: number;
  readonly ids: readonly number[];
}) => Promise<readonly number[]>;

export interface ColonyMailbox extends Mailbox {
  readonly task_id: number;
  readonly takeMessage: TakeMessage;
}

interface InboxEntry {
  readonly id: number;
  readonly ts: number;
  readonly from_agent: string;
  readonly urgency: string;
}

export async function joinThread(
  caller: ToolCaller,
  options: { repo_root: string; branch: string; session_id: string; agent: string },
): Promise<number> {
  const out = await caller.callTool('task_thread', {
    repo_root: options.repo_root,
    branch: options.branch,
    session_id: colonySessionId(options.session_id, options.agent),
    agent: options.agent,
    title: `colony swarm session ${options.session_id}`,
  });
  if (!out.ok) throw new MailboxError(`task_thread failed: ${out.text}`);
  return (out.value as { task_id: number }).task_id;
}

export async function colonyMailbox(options: ColonyMailboxOptions): Promise<ColonyMailbox> {
  const { caller } = options;
  let task_id = 0;
  for (const agent of [...options.agents, OPERATOR]) {
    task_id = await joinThread(caller, { ...options, agent });
  }
  const listeners = new Set<MessageListener>();
  const session = (agent: string) => colonySessionId(options.session_id, agent);
  const inbox = async (agent: string): Promise<InboxEntry[]> => {
    const out = await caller.callTool('task_messages', {
      session_id: session(agent),
      agent,
      task_ids: [task_id],
      unread_only: true,
      limit: 200,
    });
    if (!out.ok) throw new MailboxError(`task_messages failed: ${out.text}`);
    return out.value as InboxEntry[];
  };
  const pending = async (): Promise<PendingMail> => {
    const urgent: string[] = [];
    const other: string[] = [];
    for (const agent of options.agents) {
      const entries = await inbox(agent);
      if (entries.some((e) => e.urgency === 'blocking')) urgent.push(agent);
      else if (entries.length > 0) other.push(agent);
    }
    return { urgent, other };
  };
  return {
    task_id,
    async send(message) {
      if (message.from === message.to) throw new MailboxError('agent cannot send a message to itself');
      const urgency = message.urgent ? 'blocking' : message.needs_reply ? 'needs_reply' : 'fyi';
      const out = await caller.callTool('task_message', {
        task_id,
        session_id: session(message.from),
        agent: message.from,
        content: message.body,
        to_session_id: session(message.to),
        urgency,
      });
      if (!out.ok) throw new MailboxError(`task_message failed: ${out.text}`);
      for (const listener of listeners) listener(message.to, message.urgent === true);
    },
    async consume(agent) {
      const entries = (await inbox(agent)).sort((a, b) => a.ts - b.ts || a.id - b.id);
      if (entries.length === 0) return [];
      const bodies = new Map<number, string>();
      for (let i = 0; i < entries.length; i += 50) {
        const ids = entries.slice(i, i + 50).map((e) => e.id);
        const out = await caller.callTool('get_observations', { ids });
        if (out.ok) for (const o of out.value as { id: number; content: string }[]) bodies.set(o.id, o.content);
      }
      let read: ReadonlySet<number>;
      try {
        read = new Set(await options.markRead({ session_id: session(agent), task_id, ids: entries.map((e) => e.id) }));
      } catch (error) {
        throw new MailboxError(`marking ${entries.length} message(s) read failed: ${(error as Error).message}`);
      }
      return entries
        .filter((e) => read.has(e.id))
        .map(
          (e): PromptMessage => ({
            from: e.from_agent,
            body: bodies.get(e.id) ?? '',
            urgent: e.urgency === 'blocking',
            sent_at: e.ts,
          }),
        );
    },
    async takeMessage(agent, { from, since, accept }) {
      const entries = (await inbox(agent))
        .filter((e) => e.from_agent === from && e.ts >= since)
        .sort((a, b) => a.ts - b.ts || a.id - b.id);
      if (entries.length === 0) return null;
      const out = await caller.callTool('get_observations', { ids: entries.map((e) => e.id) });
      if (!out.ok) return null;
      const bodies = new Map((out.value as { id: number; content: string }[]).map((o) => [o.id, o.content]));
      const chosen = entries.find((e) => accept(bodies.get(e.id) ?? ''));
      if (!chosen) return null;
      await options.markRead({ session_id: session(agent), task_id, ids: [chosen.id] });
      return bodies.get(chosen.id) ?? '';
    },
    onMessage(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async pendingUrgent() {
      return [...(await pending()).urgent];
    },
    pending,
  };
}

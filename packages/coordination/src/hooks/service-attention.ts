/**
 * @module hooks/service-attention
 * The hooks' attention port, read through the services that own each kind of item,
 * so the preface shows exactly what their tools would: unread blocking and
 * needs_reply messages (MessageService.urgentUnread, blocking first) with the reply
 * call the inbox suggests, and a count of unread fyi messages.
 */
import type { MessageEntry } from '@swarm/tools';
import type { MessageService } from '../messages/message-service';
import type { Attention, AttentionMessage, AttentionPort, AttentionQuery } from './attention';

/** Most unread messages read for one preface; the preface shows a handful and counts the rest. */
const MESSAGE_SCAN = 200;

export interface AttentionServices {
  readonly messages: MessageService;
}

export function serviceAttention(services: AttentionServices): AttentionPort {
  return {
    read(query: AttentionQuery): Attention {
      // At or after: a message stamped the very millisecond of the last look is shown again, never missed.
      const isNew = (ts: number) => query.since === undefined || ts >= query.since;
      const urgent = services.messages
        .urgentUnread({ sessionId: query.sessionId, agent: query.agent, limit: 20 })
        .filter((m) => isNew(m.ts))
        .map(toAttentionMessage);
      const fyiUnread = services.messages
        .list({
          session_id: query.sessionId,
          agent: query.agent,
          unread_only: true,
          limit: MESSAGE_SCAN,
          ...(query.since === undefined ? {} : { since_ts: query.since }),
        })
        .filter((m) => m.urgency === 'fyi').length;
      return { handoffs: [], messages: urgent, fyiUnread, claims: [] };
    },
  };
}

function toAttentionMessage(entry: MessageEntry): AttentionMessage {
  return {
    id: entry.id,
    taskId: entry.task_id,
    fromAgent: entry.from_agent,
    fromSessionId: entry.from_session_id,
    urgency: entry.urgency === 'blocking' ? 'blocking' : 'needs_reply',
    preview: entry.preview,
    createdAt: entry.ts,
    reply: { tool: entry.reply_tool, args: { ...entry.suggested_reply_args } },
  };
}

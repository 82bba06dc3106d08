/**
 * @module hooks/attention
 * What the hooks surface to an agent, as plain values: pending handoffs addressed to
 * it, unread needs_reply/blocking messages, and fresh claims other sessions hold on
 * files of its tasks. The hooks read them through these ports, so the preface does
 * not depend on how claims, handoffs and messages are stored.
 */

/** A ready tool call: the tool and its arguments, as the agent should send them. */
export interface ToolCall {
  readonly tool: string;
  readonly args: Readonly<Record<string, unknown>>;
}

export interface PendingHandoff {
  /** The handoff (or relay) observation id. */
  readonly id: number;
  readonly kind: 'handoff' | 'relay';
  readonly taskId: number;
  readonly fromAgent: string;
  readonly fromSessionId: string;
  readonly summary: string;
  readonly expiresAt: number;
  readonly accept: ToolCall;
  readonly decline: ToolCall;
}

export interface AttentionMessage {
  /** The message observation id. */
  readonly id: number;
  readonly taskId: number;
  readonly fromAgent: string;
  readonly fromSessionId: string;
  readonly urgency: 'needs_reply' | 'blocking';
  readonly preview: string;
  readonly createdAt: number;
  readonly reply: ToolCall;
}

export interface OthersClaim {
  readonly taskId: number;
  /** Relative to the task's repo_root. */
  readonly filePath: string;
  readonly sessionId: string;
  readonly agent: string;
  /** When the claim was last made or refreshed. */
  readonly claimedAt: number;
  /** The reading session claimed or recently edited the same file. */
  readonly alsoYours?: boolean;
}

export interface Attention {
  readonly handoffs: readonly PendingHandoff[];
  readonly messages: readonly AttentionMessage[];
  /** Unread fyi messages: only counted, never listed. */
  readonly fyiUnread: number;
  readonly claims: readonly OthersClaim[];
}

export interface AttentionQuery {
  readonly sessionId: string;
  readonly agent: string;
  readonly taskIds: readonly number[];
  /** Only items that appeared at or after this time (epoch ms). */
  readonly since?: number;
}

/** Reads what needs a session's attention; runs inside the hook's transaction. */
export interface AttentionPort {
  read(query: AttentionQuery): Promise<Attention>;
}

export interface ClaimRequest {
  readonly taskId: number;
  readonly sessionId: string;
  readonly agent: string;
  /** Relative to the task's repo_root. */
  readonly filePath: string;
}

/** Claims a file for an edit (a warning, never a lock) and reports who else holds it. */
export interface ClaimPort {
  claim(request: ClaimRequest): Promise<{ readonly conflicts: readonly OthersClaim[] }>;
}

export const NO_ATTENTION: Attention = { handoffs: [], messages: [], fyiUnread: 0, claims: [] };

export function isEmptyAttention(attention: Attention): boolean {
  return (
    attention.handoffs.length === 0 &&
    attention.messages.length === 0 &&
    attention.fyiUnread === 0 &&
    attention.claims.length === 0
  );
}

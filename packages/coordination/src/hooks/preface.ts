/**
 * @module hooks/preface
 * The text hooks put in front of the model: the SessionStart preface, the one-line
 * reminder on a prompt when something new needs the agent, and the overlap warning
 * before an edit. Token-lean by design: ids, one-line previews, the exact next call,
 * at most a few items per section with a count and `attention_inbox` for the rest.
 */
import { compactLine } from '../tasks/post-routing';
import type { Attention, AttentionMessage, OthersClaim, PendingHandoff, ToolCall } from './attention';

const MAX_HANDOFFS = 3;
const MAX_MESSAGES = 5;
const MAX_CLAIMS = 5;
const MAX_OTHERS = 5;

export interface PrefaceTask {
  readonly id: number;
  readonly repoRoot: string;
  readonly branch: string;
  /** Other active participants: session id and agent. */
  readonly others: ReadonlyArray<{ readonly sessionId: string; readonly agent: string }>;
}

export interface PrefaceInput {
  readonly sessionId: string;
  readonly agent: string;
  /** The joined task, or null with `note` saying why none was joined. */
  readonly task: PrefaceTask | null;
  readonly note?: string;
  readonly attention: Attention;
  readonly now: number;
}

/** The SessionStart preface. */
export function renderPreface(input: PrefaceInput): string {
  const { sessionId, agent, attention, now } = input;
  const lines = [`colony: you are session ${sessionId} (agent ${agent}); pass this session_id to colony tools.`];
  if (input.task) {
    const { id, branch, repoRoot, others } = input.task;
    const shown = others.slice(0, MAX_OTHERS).map((o) => `${o.sessionId} (${o.agent})`);
    const more = others.length > MAX_OTHERS ? ` +${others.length - MAX_OTHERS} more` : '';
    lines.push(
      `Task #${id}: ${branch} in ${repoRoot}; ${shown.length ? `also here: ${shown.join(', ')}${more}` : 'no one else here'}.`,
    );
  } else if (input.note) {
    lines.push(input.note);
  }
  lines.push(...attentionLines(attention, now));
  return lines.join('\n');
}

/** The short UserPromptSubmit reminder; empty when nothing new needs the agent. */
export function renderReminder(attention: Attention): string {
  const parts = [
    count(attention.handoffs.length, 'handoff'),
    count(attention.messages.filter((m) => m.urgency === 'blocking').length, 'blocking message'),
    count(
      attention.messages.filter((m) => m.urgency === 'needs_reply').length,
      'message needing a reply',
      'messages needing a reply',
    ),
  ].filter(Boolean);
  if (parts.length === 0) return '';
  return `colony: new for you: ${parts.join(', ')}. Call attention_inbox before continuing.`;
}

/** The PreToolUse warning when others hold fresh claims on the files about to change. */
export function renderOverlap(conflicts: readonly OthersClaim[], now: number): string {
  if (conflicts.length === 0) return '';
  const shown = conflicts.slice(0, MAX_CLAIMS).map((c) => claimText(c, now));
  const more = conflicts.length > MAX_CLAIMS ? `; +${conflicts.length - MAX_CLAIMS} more` : '';
  return `colony: overlap: ${shown.join('; ')}${more}. Claims are warnings, not locks: coordinate with task_message before overwriting their work.`;
}

function attentionLines(attention: Attention, now: number): string[] {
  const lines: string[] = [];
  const blocking = attention.messages.filter((m) => m.urgency === 'blocking');
  const needsReply = attention.messages.filter((m) => m.urgency === 'needs_reply');
  // Blocking messages go first and are never coalesced (the contract's urgency rule).
  if (blocking.length) {
    lines.push('BLOCKING messages for you:');
    for (const m of blocking) lines.push(messageLine(m, now));
  }
  if (attention.handoffs.length) {
    lines.push('Handoffs for you (accept or decline):');
    for (const h of attention.handoffs.slice(0, MAX_HANDOFFS)) lines.push(...handoffLines(h, now));
    if (attention.handoffs.length > MAX_HANDOFFS)
      lines.push(`+${attention.handoffs.length - MAX_HANDOFFS} more: attention_inbox`);
  }
  if (needsReply.length) {
    lines.push('Messages needing your reply:');
    for (const m of needsReply.slice(0, MAX_MESSAGES)) lines.push(messageLine(m, now));
    if (needsReply.length > MAX_MESSAGES) lines.push(`+${needsReply.length - MAX_MESSAGES} more: task_messages`);
  }
  if (attention.fyiUnread) lines.push(`${count(attention.fyiUnread, 'unread fyi message')}: task_messages`);
  if (attention.claims.length) {
    lines.push('Files others are editing (fresh claims):');
    for (const c of attention.claims.slice(0, MAX_CLAIMS)) lines.push(`- ${claimText(c, now)}`);
    if (attention.claims.length > MAX_CLAIMS)
      lines.push(`+${attention.claims.length - MAX_CLAIMS} more: attention_inbox`);
  }
  return lines;
}

function handoffLines(h: PendingHandoff, now: number): string[] {
  return [
    `- #${h.id} ${h.kind} on task #${h.taskId} from ${h.fromAgent} (${h.fromSessionId}, expires ${relative(h.expiresAt, now)}): ${compactLine(h.summary, 160)}`,
    `  accept: ${callText(h.accept)}`,
    `  decline: ${callText(h.decline)}`,
  ];
}

function messageLine(m: AttentionMessage, now: number): string {
  return `- #${m.id} on task #${m.taskId} from ${m.fromAgent} ${relative(m.createdAt, now)}: ${compactLine(m.preview, 120)} | reply: ${callText(m.reply)}`;
}

function callText(call: ToolCall): string {
  return `${call.tool} ${JSON.stringify(call.args)}`;
}

function claimText(c: OthersClaim, now: number): string {
  const yours = c.alsoYours ? '; you touched it too' : '';
  return `${c.filePath} claimed by ${c.sessionId} (${c.agent}, task #${c.taskId}, ${relative(c.claimedAt, now)}${yours})`;
}

function count(n: number, singular: string, plural = `${singular}s`): string {
  return n === 0 ? '' : `${n} ${n === 1 ? singular : plural}`;
}

/** "4m ago", "in 2h", "just now": coarse on purpose. */
function relative(ts: number, now: number): string {
  const delta = ts - now;
  const minutes = Math.round(Math.abs(delta) / 60_000);
  if (minutes === 0) return 'just now';
  const span =
    minutes < 120
      ? `${minutes}m`
      : minutes < 48 * 60
        ? `${Math.round(minutes / 60)}h`
        : `${Math.round(minutes / 1440)}d`;
  return delta > 0 ? `in ${span}` : `${span} ago`;
}

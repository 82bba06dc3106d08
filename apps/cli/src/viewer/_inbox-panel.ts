/**
 * @module viewer/inbox-panel
 * The inbox, in one of two modes.
 * - Session (`--session S --agent A`): that session's `attention_inbox`: its pending
 *   handoffs and wakes, unread messages, open blockers and stalled lanes of others.
 * - Fleet (default): what waits anywhere in the scope. `hivemind_context` names the
 *   newest unread messages and pending handoffs/relays on the scope's threads (ids),
 *   `get_observations` gives their senders, recipients and first lines (only unread
 *   blocking and needs_reply messages are kept), and `hivemind`'s lanes that need
 *   attention (stalled or dead while holding claims or a sub-task) are listed after.
 * Entries are short previews; the page never shows a full body.
 */
import {
  type AttentionInbox,
  type AttentionInboxResult,
  expandInbox,
  type HivemindContextResult,
  type HivemindResult,
  type ObservationBody,
} from '@swarm/tools';
import { LANE_LIMIT } from './_lanes-panel';
import { given, type ReadTool } from './_reader';
import type { ViewerScope } from './_scope';

export type InboxKind = 'message' | 'handoff' | 'wake' | 'blocker' | 'stalled_lane';

export interface InboxItem {
  readonly kind: InboxKind;
  /** The observation to hydrate with get_observations (null for a lane hivemind listed). */
  readonly id: number | null;
  readonly task_id: number | null;
  /** blocking, needs_reply or fyi for messages; the lane's activity for a stalled lane. */
  readonly urgency: string | null;
  readonly from: string;
  readonly to: string | null;
  readonly preview: string;
  readonly ts: number | null;
}

export interface InboxPanel {
  readonly mode: 'session' | 'fleet';
  readonly title: string;
  readonly items: readonly InboxItem[];
}

const PREVIEW_CHARS = 80;
const URGENCY_ORDER = ['blocking', 'needs_reply', 'fyi'];

export const preview = (text: string): string => {
  const line = text.split('\n').find((l) => l.trim() !== '') ?? '';
  const flat = line.replace(/\s+/g, ' ').trim();
  return flat.length > PREVIEW_CHARS ? `${flat.slice(0, PREVIEW_CHARS - 1)}…` : flat;
};

export async function inboxPanel(read: ReadTool, scope: ViewerScope): Promise<InboxPanel> {
  return scope.sessionId && scope.agent
    ? await sessionInbox(read, scope, scope.sessionId, scope.agent)
    : await fleetInbox(read, scope);
}

async function sessionInbox(read: ReadTool, scope: ViewerScope, sessionId: string, agent: string): Promise<InboxPanel> {
  // The answer omits empty buckets and zero counts (issue 17); expandInbox fills them back.
  const a = expandInbox(
    await read<AttentionInboxResult>(
      'attention_inbox',
      given({ session_id: sessionId, agent, repo_root: scope.repoRoot }),
    ),
  );
  const s = a.summary;
  const items: InboxItem[] = [
    ...a.unread_messages.map((m) => ({
      kind: 'message' as const,
      id: m.id,
      task_id: m.task_id,
      urgency: m.urgency,
      from: m.from_agent,
      to: agent,
      preview: preview(m.preview),
      ts: m.ts,
    })),
    ...a.pending_handoffs.map((h) => baton('handoff', h, agent)),
    ...a.pending_wakes.map((w) => baton('wake', w, agent)),
    ...a.blockers.map((b) => ({
      kind: 'blocker' as const,
      id: b.id,
      task_id: b.task_id,
      urgency: 'blocking',
      from: b.from_agent,
      to: null,
      preview: preview(b.preview),
      ts: b.ts,
    })),
    ...a.stalled_lanes.map((l) => ({
      kind: 'stalled_lane' as const,
      id: l.observation_id,
      task_id: l.task_id,
      urgency: l.activity,
      from: l.owner,
      to: null,
      preview: preview(`${l.branch}: ${l.activity_summary}`),
      ts: null,
    })),
  ];
  return {
    mode: 'session',
    title: `${agent} (${sessionId}): ${s.unread_message_count} unread (${s.blocking_message_count} blocking, ${s.needs_reply_message_count} needing a reply), ${count(s.pending_handoff_count, 'handoff')}, ${count(s.pending_wake_count, 'wake')}, ${count(s.blocker_count, 'blocker')}, ${count(s.stalled_lane_count, 'stalled lane')}`,
    items,
  };
}

function baton(kind: 'handoff' | 'wake', b: AttentionInbox['pending_handoffs'][number], agent: string): InboxItem {
  return {
    kind,
    id: b.id,
    task_id: b.task_id,
    urgency: null,
    from: b.from_agent,
    to: agent,
    preview: preview(b.summary),
    ts: null,
  };
}

async function fleetInbox(read: ReadTool, scope: ViewerScope): Promise<InboxPanel> {
  const context = await read<HivemindContextResult>(
    'hivemind_context',
    given({ repo_root: scope.repoRoot, memory_limit: 0, limit: 1 }),
  );
  const ids = context.attention.observation_ids;
  const bodies = ids.length === 0 ? [] : await read<ObservationBody[]>('get_observations', { ids });
  const waiting = bodies.flatMap((o) => fleetItem(o) ?? []);
  waiting.sort((a, b) => rank(a) - rank(b) || (b.ts ?? 0) - (a.ts ?? 0));
  const lanes = await read<HivemindResult>(
    'hivemind',
    given({ repo_root: scope.repoRoot, include_stale: true, limit: LANE_LIMIT }),
  );
  const stalled: InboxItem[] = lanes.sessions
    .filter((l) => l.needs_attention)
    .map((l) => ({
      kind: 'stalled_lane',
      id: null,
      task_id: l.task_id,
      urgency: l.activity,
      from: l.owner,
      to: null,
      preview: preview(`${l.branch}: ${l.activity_summary}`),
      ts: null,
    }));
  const { unread_messages, pending_handoffs } = context.attention;
  return {
    mode: 'fleet',
    title: `Fleet view: ${count(unread_messages, 'unread message')}, ${count(pending_handoffs, 'pending handoff or relay', 'pending handoffs and relays')}, ${count(stalled.length, 'stalled lane holding work', 'stalled lanes holding work')}`,
    items: [...waiting, ...stalled],
  };
}

const count = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

const rank = (item: InboxItem) => {
  if (item.kind !== 'message') return URGENCY_ORDER.length;
  const at = URGENCY_ORDER.indexOf(item.urgency ?? '');
  return at < 0 ? URGENCY_ORDER.length : at;
};

/** A hydrated message (unread, blocking or needs_reply) or baton, as an inbox entry; others are left out. */
function fleetItem(o: ObservationBody): InboxItem | undefined {
  const meta = o.metadata ?? {};
  const str = (key: string) => (typeof meta[key] === 'string' ? (meta[key] as string) : null);
  const to = [str('to_agent'), str('to_session_id')].filter(Boolean).join(' · ') || null;
  if (o.kind === 'message') {
    const urgency = str('urgency');
    if (urgency !== 'blocking' && urgency !== 'needs_reply') return undefined;
    const from = str('from_agent') ?? o.session_id;
    return { kind: 'message', id: o.id, task_id: o.task_id, urgency, from, to, preview: preview(o.content), ts: o.ts };
  }
  if (o.kind === 'handoff' || o.kind === 'relay') {
    const kind = o.kind === 'handoff' ? 'handoff' : 'wake';
    return {
      kind,
      id: o.id,
      task_id: o.task_id,
      urgency: null,
      from: o.session_id,
      to,
      preview: preview(o.content),
      ts: o.ts,
    };
  }
  return undefined;
}

/**
 * @module lanes/hivemind-context
 * hivemind_context: the lane map compacted to ownership, plus compact memory hits,
 * the newest negative warnings of the scope, and its attention counts, with a summary
 * that always sends the caller to attention_inbox before choosing work. Everything is
 * ids, counts and short previews; bodies stay behind get_observations.
 */
import { countReadySubtasks, scopeAttention, scopeWarnings } from '@swarm/storage';
import {
  CONTEXT_TOKEN_TARGET,
  type CompactSearchHit,
  type ContextLane,
  HIVEMIND_ATTENTION_HINT,
  HIVEMIND_ATTENTION_HYDRATION,
  HIVEMIND_NEXT_ACTION,
  HIVEMIND_READY_WORK_HINT,
  type HivemindContextInput,
  type HivemindContextResult,
  NEGATIVE_WARNING_KINDS,
  type NegativeWarning,
} from '@swarm/tools';
import { withBudget } from '../budget';
import type { DomainContext } from '../context';
import type { MemoryService } from '../memory/memory-service';
import { makeSnippet } from '../memory/snippet';
import { isLiveActivity } from './activity';
import { type Lane, lockedFilePreview } from './lane';

/** Lanes fill what the summary, hits, warnings and budget leave of this (at least one lane is always listed). */
export const CONTEXT_TOKENS = CONTEXT_TOKEN_TARGET;
/** What the budget object itself costs, reserved before lanes are added. */
const BUDGET_OBJECT_TOKENS = 70;
/** Negative warnings listed. */
export const CONTEXT_WARNINGS = 2;
/** Attention observation ids listed. */
const ATTENTION_IDS = 10;
const SNIPPET_CHARS = 64;
/** Characters of the query derived from live lanes' thread titles. */
const DERIVED_QUERY_CHARS = 300;

export async function hivemindContext(
  ctx: DomainContext,
  deps: { readonly memory: MemoryService },
  args: HivemindContextInput,
  repoRoots: readonly string[],
  lanes: readonly Lane[],
): Promise<HivemindContextResult> {
  const now = ctx.clock.now();
  const { attention, ready, warnings } = await ctx.store.read(async () => ({
    attention: await scopeAttention(ctx.store, repoRoots, now, ATTENTION_IDS),
    ready: await countReadySubtasks(ctx.store, repoRoots),
    warnings: await scopeWarnings(ctx.store, repoRoots, NEGATIVE_WARNING_KINDS, CONTEXT_WARNINGS),
  }));
  const negative: NegativeWarning[] = warnings.slice(0, CONTEXT_WARNINGS).map((w) => ({
    id: w.id,
    session_id: w.sessionId,
    kind: w.kind,
    snippet: makeSnippet(w.text, '', SNIPPET_CHARS),
    ts: w.ts,
    task_id: w.taskId,
  }));
  const skip = new Set([...negative.map((w) => w.id), ...attention.observationIds]);
  const hits = await memoryHits(deps.memory, args, lanes, skip);
  const needsAttention = lanes.filter((l) => l.needsAttention).length;
  const attentionIds = attention.unreadMessages + attention.pendingHandoffs + attention.pendingRelays;
  const payload: Omit<HivemindContextResult, 'budget'> = {
    generated_at: new Date(now).toISOString(),
    summary: {
      lane_count: lanes.length,
      memory_hit_count: hits.length,
      negative_warning_count: negative.length,
      needs_attention_count: needsAttention,
      next_action: HIVEMIND_NEXT_ACTION,
      suggested_tools: ['attention_inbox', 'task_ready_for_agent'],
      must_check_attention: true,
      attention_hint: HIVEMIND_ATTENTION_HINT,
      ready_work_hint: HIVEMIND_READY_WORK_HINT,
      unread_message_count: attention.unreadMessages,
      pending_handoff_count: attention.pendingHandoffs,
      blocking: attention.blockingMessages > 0,
      ready_work_count: ready,
    },
    attention: {
      unread_messages: attention.unreadMessages,
      pending_handoffs: attention.pendingHandoffs,
      blocking: attention.blockingMessages > 0,
      observation_ids: attention.observationIds,
      ...(attentionIds > attention.observationIds.length ? { observation_ids_truncated: true } : {}),
      hydration: HIVEMIND_ATTENTION_HYDRATION,
      hydrate_with: 'attention_inbox',
    },
    lanes: [],
    memory_hits: hits,
    negative_warnings: negative,
  };
  const room = CONTEXT_TOKENS - BUDGET_OBJECT_TOKENS - ctx.tokens.count(JSON.stringify(payload));
  const listed = compactLanes(ctx, lanes, args.limit, room);
  payload.lanes = listed;
  const lanesCollapsed = listed.length < lanes.length;
  return withBudget(
    payload,
    {
      available: lanes.length + hits.length + warnings.length + attentionIds,
      returned: listed.length + hits.length + negative.length + attention.observationIds.length,
      hydrate_with: lanesCollapsed ? 'hivemind' : 'get_observations',
      why_collapsed: lanesCollapsed
        ? `${listed.length} of ${lanes.length} lanes shown, needing attention first; hivemind lists all.`
        : 'Newest warnings and attention ids only: attention_inbox lists what waits, get_observations hydrates ids.',
      trimWhenWhole: true,
    },
    ctx.tokens,
  );
}

/** Lanes in order until `limit` or about `room` tokens; always at least one. */
function compactLanes(ctx: DomainContext, lanes: readonly Lane[], limit: number, room: number): ContextLane[] {
  const listed: ContextLane[] = [];
  let tokens = 0;
  for (const lane of lanes.slice(0, limit)) {
    const files = lockedFilePreview(lane);
    const entry: ContextLane = {
      task_id: lane.taskId,
      branch: lane.branch,
      task: lane.task,
      owner: lane.owner,
      activity: lane.activity,
      needs_attention: lane.needsAttention,
      ...(files.length > 0 ? { locked_file_preview: files } : {}),
    };
    tokens += ctx.tokens.count(JSON.stringify(entry));
    if (listed.length > 0 && tokens > room) break;
    listed.push(entry);
  }
  return listed;
}

/** Live-memory hits for the query (or the live lanes' thread titles), snippets cut short, warnings left out. */
async function memoryHits(
  memory: MemoryService,
  args: HivemindContextInput,
  lanes: readonly Lane[],
  skip: ReadonlySet<number>,
): Promise<CompactSearchHit[]> {
  if (args.memory_limit === 0) return [];
  const query = args.query ?? derivedQuery(lanes);
  if (!query) return [];
  return (await memory.liveSearch({ query, limit: args.memory_limit + skip.size }))
    .filter((hit) => !skip.has(hit.id))
    .slice(0, args.memory_limit)
    .map((hit) => ({
      // search's compact hit (issue 17): session_id and ts come with get_observations.
      id: hit.id,
      kind: hit.kind,
      snippet: makeSnippet(hit.snippet, query, SNIPPET_CHARS),
      score: hit.score,
      ...(hit.task_id === null ? {} : { task_id: hit.task_id }),
    }));
}

function derivedQuery(lanes: readonly Lane[]): string {
  const texts = new Set(lanes.filter((l) => isLiveActivity(l.activity)).map((l) => l.title?.trim() || l.branch));
  return [...texts].join(' ').slice(0, DERIVED_QUERY_CHARS).trim();
}

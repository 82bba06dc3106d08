/**
 * @module lifecycle-hooks/dispatch
 * Fires one event at the configured hooks (seed 003 "How Hooks Work"): the matcher
 * groups of the event whose `matcher` (a regular expression, anchored, case-insensitive)
 * matches the source (the tool name on tool events, else the agent name), or that have
 * none; their sync hooks run in parallel and are awaited, any deny/block (or exit 2)
 * blocks, and every blocking reason is kept; async hooks start in the background, bounded
 * by their own timeout, never awaited by `fire` (`drain` waits for them at the end).
 */
import { HOOK_EVENTS, type HookContext, type HookEvent, TOOL_EVENTS } from './events.js';
import { type HookRun, runHook } from './run-hook.js';
import { DEFAULT_HOOK_TIMEOUT_SECS, type HookHandler, type HooksConfig } from './schema.js';

export interface HookDispatchResult {
  readonly event: HookEvent;
  /** Handlers whose group matched (sync and async). */
  readonly matched: number;
  /** The sync hooks' runs, in configuration order. */
  readonly runs: readonly HookRun[];
  readonly async_started: number;
  /** Some sync hook denied or blocked. */
  readonly blocked: boolean;
  /** Some sync hook printed `{"decision":"allow"}` and none blocked (approves an `ask`). */
  readonly approved: boolean;
  /** The blocking hooks' reasons. */
  readonly reasons: readonly string[];
}

export interface LifecycleHooksOptions {
  readonly session_id: string;
  /** The agent's working directory (its worktree): the hooks' cwd and `cwd` field. */
  readonly cwd: string;
  readonly agent_name?: string;
  readonly env?: Readonly<Record<string, string>>;
  readonly log?: (line: string) => void;
}

/** What a caller adds to the context (`session_id` and `hook_event_name` are the dispatcher's). */
export interface HookFields {
  readonly cwd?: string;
  readonly agent_name?: string;
  readonly tool_name?: string;
  readonly tool_input?: unknown;
  readonly tool_response?: unknown;
  readonly error?: string;
  readonly [extra: string]: unknown;
}

export class LifecycleHooks {
  private readonly background = new Set<Promise<unknown>>();

  constructor(
    private readonly config: HooksConfig | null,
    private readonly options: LifecycleHooksOptions,
  ) {}

  /** Whether any group is configured for the event (callers may skip building context). */
  has(event: HookEvent): boolean {
    return (this.config?.[HOOK_EVENTS[event]]?.length ?? 0) > 0;
  }

  async fire(event: HookEvent, fields: HookFields = {}): Promise<HookDispatchResult> {
    const context = this.context(event, fields);
    const source = TOOL_EVENTS.has(event)
      ? (fields.tool_name ?? '')
      : (fields.agent_name ?? this.options.agent_name ?? '');
    const handlers = this.matching(event, source);
    const sync = handlers.filter((h) => !h.async);
    for (const handler of handlers.filter((h) => h.async)) this.startAsync(event, handler, context);
    const runs = await Promise.all(sync.map((h) => this.run(h, context)));
    for (const run of runs.filter((r) => r.error)) this.options.log?.(`hook ${event} "${run.command}": ${run.error}`);
    const blocking = runs.filter((r) => r.decision === 'deny' || r.decision === 'block');
    return {
      event,
      matched: handlers.length,
      runs,
      async_started: handlers.length - sync.length,
      blocked: blocking.length > 0,
      approved: blocking.length === 0 && runs.some((r) => r.decision === 'allow' && r.output !== null),
      reasons: blocking.map((r) => r.reason ?? `${r.decision} by hook "${r.command}"`),
    };
  }

  /** Waits for the async hooks still running (each bounded by its timeout). */
  async drain(): Promise<void> {
    while (this.background.size > 0) await Promise.allSettled([...this.background]);
  }

  private matching(event: HookEvent, source: string): HookHandler[] {
    const groups = this.config?.[HOOK_EVENTS[event]] ?? [];
    return groups.filter((g) => g.matcher == null || matcherMatches(g.matcher, source)).flatMap((g) => g.hooks);
  }

  private run(handler: HookHandler, context: HookContext): Promise<HookRun> {
    return runHook(handler.command, context, {
      cwd: this.options.cwd,
      timeout_ms: (handler.timeout ?? DEFAULT_HOOK_TIMEOUT_SECS) * 1000,
      ...(this.options.env ? { env: this.options.env } : {}),
    });
  }

  private startAsync(event: HookEvent, handler: HookHandler, context: HookContext): void {
    const done = this.run(handler, context).then((run) => {
      if (run.error) this.options.log?.(`async hook ${event} "${run.command}": ${run.error}`);
    });
    this.background.add(done);
    void done.finally(() => this.background.delete(done));
  }

  private context(event: HookEvent, fields: HookFields): HookContext {
    const agent = fields.agent_name ?? this.options.agent_name;
    const all: Record<string, unknown> = {
      session_id: this.options.session_id,
      cwd: this.options.cwd,
      hook_event_name: event,
      ...(agent ? { agent_name: agent } : {}),
      ...fields,
    };
    // Fields that do not apply are omitted, never null (seed 003 HookContext).
    for (const [key, value] of Object.entries(all)) if (value === undefined) delete all[key];
    return all as HookContext;
  }
}

/** Anchored, case-insensitive; built-in tool names also compare without underscores. */
export function matcherMatches(matcher: string, source: string): boolean {
  const re = new RegExp(`^(?:${matcher})$`, 'i');
  return re.test(source) || (!source.startsWith('mcp__') && re.test(source.replace(/_/g, '')));
}

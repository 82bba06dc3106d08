/**
 * @module lifecycle-hooks/events
 * Seed 003's 13 hook events: the event name hooks see (`hook_event_name`) and the
 * settings key (`hooks.<key>`), and which events concern a tool call (their matcher
 * is tested against the tool name; the others' against the agent name, their source).
 */

export const HOOK_EVENTS = {
  SessionStart: 'session_start',
  PreToolUse: 'pre_tool_use',
  PostToolUse: 'post_tool_use',
  PostToolUseFailure: 'post_tool_use_failure',
  Stop: 'stop',
  SessionEnd: 'session_end',
  SubagentStart: 'subagent_start',
  SubagentStop: 'subagent_stop',
  TeammateIdle: 'teammate_idle',
  TeammateIdleWarning: 'teammate_idle_warning',
  TaskCompleted: 'task_completed',
  Notification: 'notification',
  StallDetected: 'stall_detected',
} as const;

export type HookEvent = keyof typeof HOOK_EVENTS;
export type HookEventKey = (typeof HOOK_EVENTS)[HookEvent];

export const HOOK_EVENT_NAMES = Object.keys(HOOK_EVENTS) as HookEvent[];
export const HOOK_EVENT_KEYS = Object.values(HOOK_EVENTS) as HookEventKey[];

export const TOOL_EVENTS: ReadonlySet<HookEvent> = new Set(['PreToolUse', 'PostToolUse', 'PostToolUseFailure']);

/** The event for `PreToolUse` or `pre_tool_use`, else null. */
export function hookEventOf(name: string): HookEvent | null {
  if (name in HOOK_EVENTS) return name as HookEvent;
  const entry = Object.entries(HOOK_EVENTS).find(([, key]) => key === name);
  return entry ? (entry[0] as HookEvent) : null;
}

/**
 * What a hook reads on stdin. `session_id`, `cwd`, `hook_event_name` always; the tool
 * fields on tool events only (`tool_response` on PostToolUse, `error` on
 * PostToolUseFailure); the specialised fields (TeammateIdleWarning, StallDetected) on
 * theirs. Absent fields are omitted from the JSON, never null.
 */
export interface HookContext {
  readonly session_id: string;
  readonly cwd: string;
  readonly hook_event_name: HookEvent;
  readonly agent_name?: string;
  readonly tool_name?: string;
  readonly tool_input?: unknown;
  readonly tool_response?: unknown;
  readonly error?: string;
  readonly [extra: string]: unknown;
}

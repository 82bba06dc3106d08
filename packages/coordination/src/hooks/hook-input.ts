/**
 * @module hooks/hook-input
 * The JSON an IDE writes on a hook's stdin, validated. Claude Code and Codex send the
 * same core fields (session_id, cwd, hook_event_name, transcript_path; tool_name and
 * tool_input on tool events) plus fields of their own (model, permission_mode,
 * turn_id, tool_use_id, ...), which are accepted and ignored. A payload that is not
 * JSON, lacks a field colony needs, or names another event than the one the hook was
 * registered for is refused with a one-line HookInputError.
 */
import { isAbsolute } from 'node:path';
import { z } from 'zod';

/** The hook events colony handles, as `colony hook run <event>` spells them. */
export const HOOK_EVENTS = ['session-start', 'user-prompt-submit', 'pre-tool-use', 'post-tool-use', 'stop'] as const;
export type HookEvent = (typeof HOOK_EVENTS)[number];

/** The IDEs whose hook payloads and output formats colony speaks. */
export const HOOK_IDES = ['claude-code', 'codex'] as const;
export type HookIde = (typeof HOOK_IDES)[number];

/** The `hook_event_name` each IDE sends for an event (both use the same names). */
export const IDE_EVENT_NAMES: Readonly<Record<HookEvent, string>> = {
  'session-start': 'SessionStart',
  'user-prompt-submit': 'UserPromptSubmit',
  'pre-tool-use': 'PreToolUse',
  'post-tool-use': 'PostToolUse',
  stop: 'Stop',
};

export function isHookEvent(value: string): value is HookEvent {
  return (HOOK_EVENTS as readonly string[]).includes(value);
}

export function isHookIde(value: string): value is HookIde {
  return (HOOK_IDES as readonly string[]).includes(value);
}

/** Bad hook input: the message is one line, ready for stderr. */
export class HookInputError extends Error {
  override readonly name = 'HookInputError';
}

const BasePayload = z.looseObject({
  session_id: z.string().trim().min(1).max(200),
  cwd: z.string().min(1).max(4096).refine(isAbsolute, 'must be an absolute path'),
  hook_event_name: z.string().optional(),
  transcript_path: z.string().nullish(),
});

const ToolPayload = BasePayload.extend({
  tool_name: z.string().min(1).max(200),
  tool_input: z.record(z.string(), z.unknown()),
});

export type HookBasePayload = z.output<typeof BasePayload>;
export type HookToolPayload = z.output<typeof ToolPayload>;

const SCHEMAS = {
  'session-start': BasePayload,
  'user-prompt-submit': BasePayload,
  'pre-tool-use': ToolPayload,
  'post-tool-use': ToolPayload,
  stop: BasePayload,
} as const satisfies Record<HookEvent, z.ZodType>;

export type HookPayload<E extends HookEvent> = z.output<(typeof SCHEMAS)[E]>;

/** Parses the raw stdin text of a hook; throws HookInputError with a one-line reason. */
export function parseHookPayload<E extends HookEvent>(event: E, raw: string): HookPayload<E> {
  if (raw.trim() === '') throw new HookInputError(`no hook JSON on stdin for ${event}`);
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch (error) {
    throw new HookInputError(`hook input for ${event} is not JSON: ${(error as Error).message.replace(/\s+/g, ' ')}`);
  }
  // A payload of another event means a misrouted hook config: say that, not which fields it lacks.
  const named =
    typeof json === 'object' && json !== null ? (json as Record<string, unknown>).hook_event_name : undefined;
  if (typeof named === 'string' && named !== IDE_EVENT_NAMES[event]) {
    throw new HookInputError(
      `hook input is a ${named} event but the hook was registered for ${event} (${IDE_EVENT_NAMES[event]}): check the IDE's hook config`,
    );
  }
  const parsed = SCHEMAS[event].safeParse(json);
  if (!parsed.success) {
    const reasons = parsed.error.issues
      .slice(0, 3)
      .map((issue) => `${issue.path.length ? issue.path.join('.') : 'input'}: ${issue.message}`);
    throw new HookInputError(`invalid ${event} hook input: ${reasons.join('; ')}`);
  }
  return parsed.data as HookPayload<E>;
}

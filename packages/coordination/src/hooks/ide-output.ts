/**
 * @module hooks/ide-output
 * What a hook prints on stdout, in the format the IDE reads. Claude Code and Codex
 * both take one JSON object: `hookSpecificOutput.additionalContext` is added to the
 * model's context, `systemMessage` is shown to the person. Nothing else is ever set:
 * no `permissionDecision`, no `decision`, no `continue:false`, so a hook can never
 * approve, deny or stop anything. Stop hooks print nothing (neither IDE reads context
 * from them, and a Stop `decision` would keep the agent running).
 */

import { type HookEvent, type HookIde, IDE_EVENT_NAMES } from './hook-input';
import type { HookResult } from './hook-service';

/** The stdout text for a hook's result: one JSON line, or empty when there is nothing to say. */
export function formatHookOutput(_ide: HookIde, event: HookEvent, result: HookResult): string {
  if (event === 'stop' || (!result.context && !result.notice)) return '';
  const output: Record<string, unknown> = {};
  if (result.notice) output.systemMessage = result.notice;
  if (result.context) {
    output.hookSpecificOutput = { hookEventName: IDE_EVENT_NAMES[event], additionalContext: result.context };
  }
  return `${JSON.stringify(output)}\n`;
}

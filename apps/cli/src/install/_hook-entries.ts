/**
 * @module install/hook-entries
 * Merging colony's hooks into an IDE's `hooks` object, shaped the same in Claude Code's
 * settings.json and Codex's hooks.json: `{ <Event>: [ { matcher?, hooks: [ { type:
 * "command", command, timeout } ] } ] }`. colony's handler for an event is recognised
 * by its command (`... colony|cli.js hook run <event> ...`), so a re-run updates it in
 * place (a moved install, a new flag) instead of adding a second one, and every other
 * handler, group and key is left exactly as it was.
 */
import { isDeepStrictEqual } from 'node:util';
import { isPlainObject } from './_config-file';

/** What install did to an entry (`added`, `updated`, `unchanged`), or uninstall (`removed`, `absent`). */
export type ChangeStatus = 'added' | 'updated' | 'unchanged' | 'removed' | 'absent';

export interface HookEntrySpec {
  /** The IDE's event name, e.g. PreToolUse. */
  readonly event: string;
  /** colony's event name, as `hook run` takes it. */
  readonly colonyEvent: string;
  readonly matcher?: string;
  readonly command: string;
  readonly timeout: number;
}

const OURS = /(?:colony|colony\.js|cli\.js)["']?\s+hook\s+run\s+([a-z-]+)(?:\s|$)/;

/** True when a hook command is colony's handler for `colonyEvent` (any event when omitted). */
export function isColonyHookCommand(command: unknown, colonyEvent?: string): boolean {
  if (typeof command !== 'string') return false;
  const event = OURS.exec(command)?.[1];
  return event !== undefined && (colonyEvent === undefined || event === colonyEvent);
}

/**
 * Puts each spec's handler into `hooks` (mutated), returning what happened per event.
 * Throws TypeError when the existing shape is not the documented one; the caller
 * turns that into a refusal.
 */
export function mergeHookEntries(
  hooks: Record<string, unknown>,
  specs: readonly HookEntrySpec[],
): Map<string, ChangeStatus> {
  const statuses = new Map<string, ChangeStatus>();
  for (const spec of specs) {
    const current = hooks[spec.event];
    if (current !== undefined && !Array.isArray(current)) throw new TypeError(`hooks.${spec.event} is not a list`);
    const groups = (current ?? []) as unknown[];
    const before = structuredClone(groups);
    const handler = { type: 'command', command: spec.command, timeout: spec.timeout };
    const found: Array<{ group: Record<string, unknown>; handlers: unknown[]; index: number }> = [];
    for (const group of groups) {
      if (!isPlainObject(group) || !Array.isArray(group.hooks)) continue;
      const handlers = group.hooks as unknown[];
      handlers.forEach((existing, index) => {
        if (isPlainObject(existing) && isColonyHookCommand(existing.command, spec.colonyEvent)) {
          found.push({ group, handlers, index });
        }
      });
    }
    const [first, ...extra] = found;
    // Duplicates (from hand edits) go, last first so the indexes stay valid.
    for (const dup of extra.reverse()) {
      dup.handlers.splice(dup.index, 1);
      if (dup.handlers.length === 0) groups.splice(groups.indexOf(dup.group), 1);
    }
    if (first) {
      first.handlers[first.index] = { ...(first.handlers[first.index] as object), ...handler };
      // A group holding only colony's handler is colony's: its matcher follows the spec.
      if (first.handlers.length === 1) setMatcher(first.group, spec.matcher);
    } else {
      groups.push({ ...(spec.matcher === undefined ? {} : { matcher: spec.matcher }), hooks: [handler] });
    }
    hooks[spec.event] = groups;
    statuses.set(spec.event, !first ? 'added' : isDeepStrictEqual(before, groups) ? 'unchanged' : 'updated');
  }
  return statuses;
}

function setMatcher(group: Record<string, unknown>, matcher: string | undefined): void {
  if (matcher === undefined) delete group.matcher;
  else group.matcher = matcher;
}

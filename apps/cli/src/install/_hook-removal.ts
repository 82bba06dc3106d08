/**
 * @module install/hook-removal
 * Taking colony's handlers out of an IDE's `hooks` object (the shape
 * `_hook-entries.ts` writes): a handler is colony's by its command. A group left
 * without handlers goes, an event left without groups goes, and `hooks` itself goes
 * when nothing is left, so an uninstall undoes what the install added and nothing
 * else: the user's handlers, groups and matchers stay as they were.
 */
import { isPlainObject } from './_config-file';
import { type ChangeStatus, isColonyHookCommand } from './_hook-entries';

/** Removes colony's handlers from `hooks` (mutated); returns what happened per event that had one. */
export function removeHookEntries(hooks: Record<string, unknown>): Map<string, ChangeStatus> {
  const statuses = new Map<string, ChangeStatus>();
  for (const [event, groups] of Object.entries(hooks)) {
    if (!Array.isArray(groups)) continue;
    let removed = false;
    const kept = groups.filter((group) => {
      if (!isPlainObject(group) || !Array.isArray(group.hooks)) return true;
      const handlers = group.hooks.filter((h) => !(isPlainObject(h) && isColonyHookCommand(h.command)));
      if (handlers.length === group.hooks.length) return true;
      removed = true;
      group.hooks = handlers;
      return handlers.length > 0;
    });
    if (!removed) continue;
    statuses.set(event, 'removed');
    if (kept.length === 0) delete hooks[event];
    else hooks[event] = kept;
  }
  return statuses;
}

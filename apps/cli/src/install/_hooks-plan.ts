/**
 * @module install/hooks-plan
 * colony's five hook handlers in an IDE's hooks file: the specs for a launcher, and
 * the install and uninstall plans of the file.
 */
import { InstallError, parseJsonObject, readConfigText } from './_config-file';
import { type FilePlan, jsonPlan, objectAt, setOrPrune } from './_file-plan';
import { type ChangeStatus, type HookEntrySpec, mergeHookEntries } from './_hook-entries';
import { removeHookEntries } from './_hook-removal';
import type { HooksLocation } from './_ide-spec';

/** Seconds an IDE waits for a colony hook before giving up on it (and carrying on). */
export const HOOK_TIMEOUT_SECONDS = 20;

const EVENTS: ReadonlyArray<{ event: string; colonyEvent: string; edits?: true }> = [
  { event: 'SessionStart', colonyEvent: 'session-start' },
  { event: 'UserPromptSubmit', colonyEvent: 'user-prompt-submit' },
  { event: 'PreToolUse', colonyEvent: 'pre-tool-use', edits: true },
  { event: 'PostToolUse', colonyEvent: 'post-tool-use', edits: true },
  { event: 'Stop', colonyEvent: 'stop' },
];

/** The specs for `<launcher> hook run <event> --ide <ide> <extra...>`. */
export function hookSpecs(launcher: readonly string[], ide: string, extraArgs: readonly string[], editMatcher: string) {
  return EVENTS.map(
    ({ event, colonyEvent, edits }): HookEntrySpec => ({
      event,
      colonyEvent,
      ...(edits ? { matcher: editMatcher } : {}),
      command: shellCommand([...launcher, 'hook', 'run', colonyEvent, '--ide', ide, ...extraArgs]),
      timeout: HOOK_TIMEOUT_SECONDS,
    }),
  );
}

export function planHooksInstall(location: HooksLocation, specs: readonly HookEntrySpec[]): FilePlan {
  const file = readConfigText(location.path);
  const config = parseJsonObject(file);
  const hooks = objectAt(file, config, 'hooks');
  let statuses: Map<string, ChangeStatus>;
  try {
    statuses = mergeHookEntries(hooks, specs);
  } catch (error) {
    throw new InstallError(`${file.path}: ${(error as Error).message}; fix it by hand, the file was left untouched`);
  }
  config.hooks = hooks;
  return jsonPlan(file, config, itemsOf(statuses));
}

export function planHooksUninstall(location: HooksLocation): FilePlan {
  const file = readConfigText(location.path);
  const config = parseJsonObject(file);
  const hooks = objectAt(file, config, 'hooks');
  const statuses = removeHookEntries(hooks);
  if (statuses.size > 0) setOrPrune(config, 'hooks', hooks);
  const items = itemsOf(statuses);
  return jsonPlan(file, config, items.length ? items : [{ name: 'hooks', status: 'absent' }]);
}

function itemsOf(statuses: Map<string, ChangeStatus>) {
  return [...statuses].map(([event, status]) => ({ name: `hooks.${event}`, status }));
}

/** A POSIX shell command line: words with anything but safe characters are single-quoted. */
export function shellCommand(words: readonly string[]): string {
  return words.map((word) => (/^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`)).join(' ');
}

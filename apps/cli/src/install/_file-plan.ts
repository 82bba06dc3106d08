/**
 * @module install/file-plan
 * One config file's planned change: its text now, the items colony's entries went
 * through, and its text after (null: the file goes, colony's entries were all it
 * held). Plans are made for every file before any is written.
 */
import {
  type ConfigText,
  InstallError,
  isPlainObject,
  removeConfigFile,
  renderJson,
  writeConfigAtomically,
} from './_config-file';
import type { ChangeStatus } from './_hook-entries';

export interface InstallItem {
  readonly name: string;
  readonly status: ChangeStatus;
}

export interface FilePlan {
  readonly file: ConfigText;
  readonly items: readonly InstallItem[];
  readonly text: string | null;
}

/** Whether applying the plan changes the file on disk. */
export function planChanges(plan: FilePlan): boolean {
  return plan.text === null ? plan.file.exists : plan.text !== plan.file.text;
}

export function applyPlan(plan: FilePlan): void {
  if (!planChanges(plan)) return;
  if (plan.text === null) removeConfigFile(plan.file.path);
  else writeConfigAtomically(plan.file.path, plan.text);
}

/** A JSON file's plan: untouched when no item changed; removed when an uninstall leaves `{}`. */
export function jsonPlan(file: ConfigText, value: Record<string, unknown>, items: InstallItem[]): FilePlan {
  const changed = items.some((item) => item.status !== 'unchanged' && item.status !== 'absent');
  if (!changed) return { file, items, text: file.text };
  const emptied = Object.keys(value).length === 0 && items.every((i) => i.status === 'removed');
  return { file, items, text: emptied ? null : renderJson(value, file.text) };
}

/** The object under `key` (a new one when absent); refuses any other value there. */
export function objectAt(file: ConfigText, config: Record<string, unknown>, key: string): Record<string, unknown> {
  const value = config[key];
  if (value === undefined) return {};
  if (!isPlainObject(value)) {
    throw new InstallError(`${file.path}: "${key}" is not an object; fix it by hand, the file was left untouched`);
  }
  return value;
}

/** Sets `config[key]` to `value`, or deletes the key when `value` is empty (an uninstall's leftovers). */
export function setOrPrune(config: Record<string, unknown>, key: string, value: Record<string, unknown>): void {
  if (Object.keys(value).length === 0) delete config[key];
  else config[key] = value;
}

/**
 * @module install/check
 * `colony install --check`: per IDE, whether colony's entries are there and current
 * (what an install now would write), from a dry run of that install.
 */
import { type InstalledFile, type InstallIde, type InstallOptions, type InstallScope, installIde } from './install';

/** installed: all entries there, as an install would write them now; outdated: there, but different; partial: some missing; absent: none. */
export type InstallState = 'installed' | 'outdated' | 'partial' | 'absent';

export interface IdeCheck {
  readonly ide: InstallIde;
  readonly scope: InstallScope;
  readonly state: InstallState;
  readonly files: readonly InstalledFile[];
}

export function checkIde(options: InstallOptions): IdeCheck {
  const report = installIde({ ...options, dryRun: true });
  const statuses = report.files.flatMap((f) => f.items.map((i) => i.status));
  const added = statuses.filter((s) => s === 'added').length;
  const state: InstallState =
    added === statuses.length
      ? 'absent'
      : added > 0
        ? 'partial'
        : statuses.every((s) => s === 'unchanged')
          ? 'installed'
          : 'outdated';
  return { ide: report.ide, scope: report.scope, state, files: report.files };
}

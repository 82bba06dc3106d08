/**
 * Human renderings of install, uninstall and check reports.
 */
import type { IdeCheck } from '../install/check';
import type { InstallReport } from '../install/install';

const plural = (n: number) => `${n} file${n === 1 ? '' : 's'}`;

export function describeReport(report: InstallReport, verb: 'install' | 'uninstall'): string[] {
  const changed = report.files.filter((f) => f.changed).length;
  const idle = verb === 'install' ? 'already installed; nothing changed' : 'not installed; nothing changed';
  const head = report.dryRun
    ? `dry run: ${changed ? `would change ${plural(changed)}` : 'nothing to change'}; nothing written`
    : changed
      ? `${report.ide}: changed ${plural(changed)}`
      : `${report.ide}: ${idle}`;
  return [
    head,
    ...report.files.map((f) => `  ${f.path}: ${f.items.map((i) => `${i.name} ${i.status}`).join(', ')}`),
    ...report.notes.map((n) => `note: ${n}`),
  ];
}

export function describeChecks(checks: readonly IdeCheck[]): string[] {
  return checks.flatMap((check) => [
    `${check.ide} (${check.scope}): ${check.state}`,
    ...check.files.map((f) => `  ${f.path}: ${f.items.map((i) => `${i.name} ${statusWord(i.status)}`).join(', ')}`),
  ]);
}

/** A dry run's statuses read as the state of each entry. */
function statusWord(status: string): string {
  return status === 'added' ? 'missing' : status === 'updated' ? 'outdated' : 'current';
}

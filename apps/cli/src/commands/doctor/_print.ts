/**
 * @module doctor/print
 * Doctor's human rendering: one line per check (status word coloured on a TTY), the
 * fix indented under it, and a summary line.
 */
import { paint } from '../../_color';
import type { DoctorCheck } from './_check';

const COLOR = { ok: 'green', warn: 'yellow', fail: 'red' } as const;

export function describeChecks(checks: readonly DoctorCheck[]): string[] {
  const width = Math.max(...checks.map((c) => c.id.length));
  const lines = checks.flatMap((c) => [
    `${paint(COLOR[c.status], c.status.padEnd(4))}  ${c.id.padEnd(width)}  ${c.message}`,
    ...(c.fix && c.status !== 'ok' ? [`${' '.repeat(width + 8)}fix: ${c.fix}`] : []),
  ]);
  const count = (s: string) => checks.filter((c) => c.status === s).length;
  return [...lines, `${count('fail')} failed, ${count('warn')} warnings, ${count('ok')} ok`];
}

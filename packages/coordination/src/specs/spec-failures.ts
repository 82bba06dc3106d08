/**
 * @module specs/spec-failures
 * Build failures of a spec change: a signature that survives reruns (test id plus the
 * error with numbers, hex ids and absolute paths masked), a §B row in the change kept
 * current by one delta per signature, and the promotion of a repeated failure to an
 * invariant proposal.
 */
import { nodeCrypto } from '../_crypto';
import type { SpecDelta } from './spec-deltas';
import { nextRowId, parseSpec } from './spec-format';

/** sha256 of the test id and the masked error, hex. */
export function failureSignature(testId: string, error: string): string {
  const masked = error
    .trim()
    .replace(/(?:\/[\w.@-]+)+\/?/g, '<path>')
    .replace(/\b0x[0-9a-f]+\b|\b[0-9a-f]{8,}\b/gi, '<hex>')
    .replace(/\d+/g, 'N')
    .replace(/\s+/g, ' ');
  return nodeCrypto().createHash('sha256').update(`${testId.trim()}\n${masked}`, 'utf8').digest('hex');
}

/** The short signature shown in §B. */
export function shortSignature(hash: string): string {
  return hash.slice(0, 12);
}

/**
 * The change's deltas with the §B row of this signature set to `cells`: an existing
 * delta for it is updated in place, a base row gets a modify, else a new row is added.
 */
export function upsertFailureDelta(base: string, deltas: readonly SpecDelta[], cells: readonly string[]): SpecDelta[] {
  const signature = cells[0];
  const own = deltas.findIndex((d) => d.target.startsWith('B.') && d.op !== 'remove' && d.cells[0] === signature);
  if (own >= 0) {
    return deltas.map((d, i) => (i === own ? { ...d, cells: [...cells] } : d));
  }
  const doc = parseSpec(base);
  const inBase = doc.sections.find((s) => s.key === 'B')?.rows?.find((r) => r.cells[0] === signature);
  if (inBase) return [...deltas, { op: 'modify', target: inBase.id, cells: [...cells] }];
  const target = nextRowId(
    doc,
    'B',
    deltas.map((d) => d.target),
  );
  return [...deltas, { op: 'add', target, cells: [...cells] }];
}

/** The repository file a test id names (`path/to/x.test.ts:14` -> `path/to/x.test.ts`). */
export function testFileOf(testId: string): string {
  return testId.replace(/(?::\d+)+$/, '').split(/\s|>|::/)[0] ?? testId;
}

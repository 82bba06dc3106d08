/**
 * @module spec-failures
 * Queries for test failures recorded while building spec changes: one row per
 * (repo_root, signature), counted up by each report. Callers run them inside
 * `store.write`, so concurrent reports of one signature count exactly.
 */
import { dbOf, type Store } from './_store';
import { specFailures } from './schema';
import { type FailureReport, failureCounted, specFailureOf } from './where/spec-failures';

export type SpecFailure = typeof specFailures.$inferSelect;

export type { FailureReport };

/** Counts one more failure of the signature (inserting it at 1); returns the row after. */
export function countSpecFailure(store: Store, report: FailureReport, now: number): SpecFailure {
  const counted = failureCounted(specFailures, report, now);
  return dbOf(store)
    .insert(specFailures)
    .values(counted.values)
    .onConflictDoUpdate({ target: counted.target, set: counted.set })
    .returning()
    .get();
}

export function setSpecFailureProposal(store: Store, repoRoot: string, signatureHash: string, proposalId: number) {
  dbOf(store)
    .update(specFailures)
    .set({ proposalId })
    .where(specFailureOf(specFailures, repoRoot, signatureHash))
    .run();
}

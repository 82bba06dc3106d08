/**
 * @module spec-failures
 * Queries for test failures recorded while building spec changes: one row per
 * (repo_root, signature), counted up by each report. Callers run them inside
 * `store.write`, so concurrent reports of one signature count exactly.
 */
import { and, eq, sql } from 'drizzle-orm';
import { dbOf, type Store } from './_store';
import { specFailures } from './schema';

export type SpecFailure = typeof specFailures.$inferSelect;

export interface FailureReport {
  readonly repoRoot: string;
  readonly signatureHash: string;
  readonly testId: string;
  readonly summary: string;
}

/** Counts one more failure of the signature (inserting it at 1); returns the row after. */
export function countSpecFailure(store: Store, report: FailureReport, now: number): SpecFailure {
  return dbOf(store)
    .insert(specFailures)
    .values({ ...report, count: 1, firstSeenAt: now, lastSeenAt: now })
    .onConflictDoUpdate({
      target: [specFailures.repoRoot, specFailures.signatureHash],
      set: { count: sql`${specFailures.count} + 1`, lastSeenAt: now, summary: report.summary },
    })
    .returning()
    .get();
}

export function setSpecFailureProposal(store: Store, repoRoot: string, signatureHash: string, proposalId: number) {
  dbOf(store)
    .update(specFailures)
    .set({ proposalId })
    .where(and(eq(specFailures.repoRoot, repoRoot), eq(specFailures.signatureHash, signatureHash)))
    .run();
}

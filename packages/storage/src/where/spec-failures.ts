/**
 * @module where/spec-failures
 * The (repo_root, signature_hash) condition and the counting upsert of spec failures, shared by
 * `src/spec-failures.ts` (SQLite) and `src/pg/queries/spec-failures.ts` (PostgreSQL).
 */
import { and, eq, sql } from 'drizzle-orm';
import type { specFailures } from '../schema';
import type { ColsOf } from './_columns';

/** The `specFailures` columns these builders read. */
export type FailureCols = ColsOf<typeof specFailures, 'repoRoot' | 'signatureHash' | 'count'>;

/** A repository's failure of this signature. */
export const specFailureOf = (f: FailureCols, repoRoot: string, signatureHash: string) =>
  and(eq(f.repoRoot, repoRoot), eq(f.signatureHash, signatureHash));

/** One report of a failing test. */
export interface FailureReport {
  readonly repoRoot: string;
  readonly signatureHash: string;
  readonly testId: string;
  readonly summary: string;
}

/** The upsert counting one more failure: the row at 1, or on (repo_root, signature_hash) count + 1. */
export function failureCounted<T extends FailureCols>(f: T, report: FailureReport, now: number) {
  const target: [T['repoRoot'], T['signatureHash']] = [f.repoRoot, f.signatureHash];
  const set = { count: sql`${f.count} + 1`, lastSeenAt: now, summary: report.summary };
  return { values: { ...report, count: 1, firstSeenAt: now, lastSeenAt: now }, target, set };
}

/**
 * @module pg/queries/spec-failures
 * The spec-failure counters of `src/spec-failures.ts` on PostgreSQL: one row per
 * (repo_root, signature), counted up by `INSERT ... ON CONFLICT DO UPDATE SET count =
 * count + 1` (one statement: concurrent reports of one signature count exactly).
 */
import { and, eq, sql } from 'drizzle-orm';
import type { FailureReport, SpecFailure } from '../../spec-failures';
import { pgTables } from '../schema';
import { pgDb } from '../store/_handle';
import type { PgStore } from '../store/pg-store';

const { specFailures } = pgTables;

/** Counts one more failure of the signature (inserting it at 1); returns the row after. */
export async function countSpecFailure(store: PgStore, report: FailureReport, now: number): Promise<SpecFailure> {
  const [row] = await pgDb(store)
    .insert(specFailures)
    .values({ ...report, count: 1, firstSeenAt: now, lastSeenAt: now })
    .onConflictDoUpdate({
      target: [specFailures.repoRoot, specFailures.signatureHash],
      set: { count: sql`${specFailures.count} + 1`, lastSeenAt: now, summary: report.summary },
    })
    .returning();
  return row as SpecFailure;
}

export async function setSpecFailureProposal(
  store: PgStore,
  repoRoot: string,
  signatureHash: string,
  proposalId: number,
): Promise<void> {
  await pgDb(store)
    .update(specFailures)
    .set({ proposalId })
    .where(and(eq(specFailures.repoRoot, repoRoot), eq(specFailures.signatureHash, signatureHash)));
}

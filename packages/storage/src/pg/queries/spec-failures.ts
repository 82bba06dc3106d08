/**
 * @module pg/queries/spec-failures
 * The spec-failure counters of `src/spec-failures.ts` on PostgreSQL: one row per
 * (repo_root, signature), counted up by `INSERT ... ON CONFLICT DO UPDATE SET count =
 * count + 1` (one statement: concurrent reports of one signature count exactly).
 */
import type { FailureReport, SpecFailure } from '../../spec-failures';
import { failureCounted, specFailureOf } from '../../where/spec-failures';
import { pgTables } from '../schema';
import { pgDb } from '../store/_handle';
import type { PgStore } from '../store/pg-store';

const { specFailures } = pgTables;

/** Counts one more failure of the signature (inserting it at 1); returns the row after. */
export async function countSpecFailure(store: PgStore, report: FailureReport, now: number): Promise<SpecFailure> {
  const counted = failureCounted(specFailures, report, now);
  const [row] = await pgDb(store)
    .insert(specFailures)
    .values(counted.values)
    .onConflictDoUpdate({ target: counted.target, set: counted.set })
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
    .where(specFailureOf(specFailures, repoRoot, signatureHash));
}

/**
 * @module where/examples
 * The (repo_root, example_name) condition of the examples index, shared by
 * `src/examples.ts` (SQLite) and `src/pg/queries/examples.ts` (PostgreSQL).
 */
import { and, eq } from 'drizzle-orm';
import type { Col } from './_columns';

/** A repository's example of this name. */
export const exampleNamed = (
  e: { readonly repoRoot: Col<string>; readonly exampleName: Col<string> },
  repoRoot: string,
  exampleName: string,
) => and(eq(e.repoRoot, repoRoot), eq(e.exampleName, exampleName));

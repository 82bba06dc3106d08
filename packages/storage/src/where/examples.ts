/**
 * @module where/examples
 * The (repo_root, example_name) condition of the examples index, shared by
 * `src/examples.ts` (SQLite) and `src/pg/queries/examples.ts` (PostgreSQL).
 */
import { and, eq } from 'drizzle-orm';
import type { examples } from '../schema';
import type { ColsOf } from './_columns';

/** A repository's example of this name. */
export const exampleNamed = (
  e: ColsOf<typeof examples, 'repoRoot' | 'exampleName'>,
  repoRoot: string,
  exampleName: string,
) => and(eq(e.repoRoot, repoRoot), eq(e.exampleName, exampleName));

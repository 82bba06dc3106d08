/**
 * Shared pieces of the spec tests: a sample SPEC.md and a repository holding it.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Fixture } from './_fixture';

export const SAMPLE_SPEC = `# Widgets

## §G Goal

Serve widgets.

## §C Constraints

- Node 20 only.

## §V Invariants

| id | level | rule |
| --- | --- | --- |
| V.1 | must | widgets have ids |
| V.2 | always | no network in tests |
| V.3 | should | pages are cached |

## §T Tasks

| id | status | task | cites |
| --- | --- | --- | --- |
| T.1 | done | build the API | V.1 |
| T.5 | todo | cache pages | V.3, V.1 |

## §B Failures

| id | signature | test_id | count | summary |
| --- | --- | --- | --- | --- |
`;

/** A fresh repository folder with SAMPLE_SPEC (or `spec`) as its SPEC.md. */
export function specRepo(f: Fixture, name = 'repo', spec: string | null = SAMPLE_SPEC): string {
  const repo = f.repo(name);
  if (spec !== null) writeFileSync(join(repo, 'SPEC.md'), spec);
  return repo;
}

/**
 * @module where/links
 * The conditions of the task-link queries, shared by `src/links.ts` (SQLite) and
 * `src/pg/queries/links.ts` (PostgreSQL). A link is stored once, as (low_id, high_id).
 */
import { and, desc, eq, or, sql } from 'drizzle-orm';
import type { taskLinks } from '../schema';
import type { ColsOf } from './_columns';

/** The `taskLinks` columns these builders read. */
export type LinkCols = ColsOf<typeof taskLinks, 'lowId' | 'highId' | 'createdAt'>;

/** The stored orientation of a pair: [low, high]. */
export function linkKey(a: number, b: number): [number, number] {
  return a < b ? [a, b] : [b, a];
}

export const linkWhere = {
  /** The link between a and b, in either order. */
  pair: (l: LinkCols, a: number, b: number) => {
    const [lowId, highId] = linkKey(a, b);
    return and(eq(l.lowId, lowId), eq(l.highId, highId));
  },
  /** The links of one task, on either side. */
  ofTask: (l: LinkCols, taskId: number) => or(eq(l.lowId, taskId), eq(l.highId, taskId)),
  /** The id of the task on the other side of a link of `taskId`. */
  otherSide: (l: LinkCols, taskId: number) =>
    sql`CASE WHEN ${l.lowId} = ${taskId} THEN ${l.highId} ELSE ${l.lowId} END`,
  /** Newest first, then by the pair. */
  order: (l: LinkCols) => [desc(l.createdAt), desc(l.lowId), desc(l.highId)],
};

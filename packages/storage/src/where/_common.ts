/**
 * @module where/common
 * Conditions several tables' queries share, on either dialect's table.
 */
import { and, eq } from 'drizzle-orm';
import type { Arg, Col } from './_columns';

/** A table with an id and a status: the guard of a one-winner status change. */
export interface StatusCols {
  readonly id: Col<number>;
  readonly status: Col<string>;
}

/** Row `id` while its status is `status`: of many racing guarded updates, one changes it. */
export const oneIn = (t: StatusCols, id: Arg<number>, status: string) => and(eq(t.id, id), eq(t.status, status));

/** Row `id` while it is still pending. */
export const pendingOne = (t: StatusCols, id: number) => oneIn(t, id, 'pending');

/** `column = value`, or no condition when `value` is not given (`and` drops it). */
export const eqIf = <T>(column: Col<T>, value: T | undefined) => (value === undefined ? undefined : eq(column, value));

/** The object without its undefined fields (a change's "keep this value" entries). */
export function definedOnly<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

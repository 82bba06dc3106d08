/**
 * @module where/common
 * Conditions several tables' queries share, on either dialect's table.
 */
import { and, eq } from 'drizzle-orm';
import type { Col } from './_columns';

/** Row `id` while its status is still pending: the guard of every one-winner status change. */
export const pendingOne = (t: { readonly id: Col<number>; readonly status: Col<string> }, id: number) =>
  and(eq(t.id, id), eq(t.status, 'pending'));

/** `column = value`, or no condition when `value` is not given. */
export const eqIf = <T>(column: Col<T>, value: T | undefined) => (value === undefined ? undefined : eq(column, value));

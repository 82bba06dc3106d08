/**
 * @module compare-text
 * String order by UTF-16 code units: the same on every machine whatever its locale,
 * and cheap (localeCompare goes through ICU, which dominated ranking hot paths).
 */

/** Negative, zero or positive as `a` sorts before, with or after `b`. */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

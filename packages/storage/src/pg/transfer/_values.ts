/**
 * @module pg/transfer/values
 * PostgreSQL values in SQLite's forms and back, so one encoder (transfer/values.ts)
 * writes both backends' exports: bigint is read as a JS bigint (as SQLite is read with
 * safe integers), boolean as 1n/0n (SQLite's 1/0), double precision as a number
 * (PostgreSQL 12+ prints the shortest exact text, so it round-trips), bytea as a
 * Buffer, text as a string. Written back, integers and booleans go as decimal text
 * (PostgreSQL's boolean reads '1'/'0'), -0 as '-0'; a string holding U+0000, which
 * PostgreSQL text cannot store, is refused as STORE_IMPORT_NUL_IN_TEXT.
 */
import type { CustomTypesConfig } from 'pg';
import { StoreTransferError } from '../../transfer/errors';
import type { SqlValue } from '../../transfer/values';

const INT8 = 20;
const BOOL = 16;

/** Type parsers for reading rows (text format). */
export function readTypes(defaults: CustomTypesConfig): CustomTypesConfig {
  return {
    getTypeParser: ((oid: number, format?: 'text' | 'binary') => {
      if (oid === INT8) return (text: string) => BigInt(text);
      if (oid === BOOL) return (text: string) => (text === 't' ? 1n : 0n);
      return defaults.getTypeParser(oid, format as 'text');
    }) as CustomTypesConfig['getTypeParser'],
  };
}

/** One decoded export value as a query parameter; `where` names it in a refusal. */
export function toParam(value: SqlValue, where: () => Record<string, unknown>): unknown {
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'number') return Object.is(value, -0) ? '-0' : value;
  if (typeof value === 'string' && value.includes('\u0000')) {
    const at = where();
    throw new StoreTransferError(
      'STORE_IMPORT_NUL_IN_TEXT',
      `line ${String(at.line)}: ${String(at.table)}.${String(at.column)} holds a NUL character (U+0000), which PostgreSQL text cannot store`,
      at,
    );
  }
  return value;
}

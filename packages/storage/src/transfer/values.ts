/**
 * @module transfer/values
 * One SQLite value as JSON and back, exactly. Values are read with safe integers on,
 * so the storage class decides the form: an integer is a JSON number while it fits in
 * 2^53, else `{"$int":"<decimal>"}`; a real is a JSON number, or `{"$real":"<text>"}`
 * when JSON would lose it (-0, infinities) or when it is integral in a column whose
 * type is not real (where a plain number would come back as an integer); a blob is
 * `{"$blob":"<base64>"}`; text is a JSON string; NULL is null. On the way back a JSON
 * integer binds as an integer and any other number as a real.
 */
import type { ColumnType } from './tables';

export type JsonValue =
  | null
  | number
  | string
  | { readonly $int: string }
  | { readonly $real: string }
  | { readonly $blob: string };
export type SqlValue = null | bigint | number | string | Buffer;

function encodeReal(value: number, type: ColumnType): JsonValue {
  if (!Number.isFinite(value) || Object.is(value, -0)) return { $real: String(value === 0 ? '-0' : value) };
  if (Number.isInteger(value) && type !== 'real') return { $real: String(value) };
  return value;
}

/** A value as read from SQLite (safe integers on) to its JSON form. */
export function encodeValue(value: unknown, type: ColumnType): JsonValue {
  if (value === null || typeof value === 'string') return value;
  if (typeof value === 'bigint') {
    const safe = value <= BigInt(Number.MAX_SAFE_INTEGER) && value >= BigInt(Number.MIN_SAFE_INTEGER);
    return safe ? Number(value) : { $int: value.toString() };
  }
  if (typeof value === 'number') return encodeReal(value, type);
  if (Buffer.isBuffer(value)) return { $blob: value.toString('base64') };
  throw new Error(`transfer: unexpected SQLite value of type ${typeof value}`);
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const INTEGER = /^-?\d+$/;

/** A JSON value back to what binds as the same SQLite value; undefined when it is not one. */
export function decodeValue(value: unknown): SqlValue | undefined {
  if (value === null || typeof value === 'string') return value;
  if (typeof value === 'number') return Number.isInteger(value) ? BigInt(value) : value;
  if (typeof value !== 'object' || Array.isArray(value)) return undefined;
  const keys = Object.keys(value);
  if (keys.length !== 1) return undefined;
  const marker = value as Record<string, unknown>;
  if (typeof marker.$int === 'string' && INTEGER.test(marker.$int)) return BigInt(marker.$int);
  if (typeof marker.$real === 'string') {
    const real = marker.$real === '-0' ? -0 : Number(marker.$real);
    return Number.isNaN(real) ? undefined : real;
  }
  if (typeof marker.$blob === 'string' && BASE64.test(marker.$blob)) return Buffer.from(marker.$blob, 'base64');
  return undefined;
}

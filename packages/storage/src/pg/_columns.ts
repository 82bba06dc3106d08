/**
 * @module pg/_columns
 * One SQLite column of the schema as the PostgreSQL column that holds the same values.
 * SQLite's INTEGER is 64-bit (ms timestamps, ids, counts), so every integer becomes
 * `bigint` read as a JS number; an AUTOINCREMENT key becomes an identity column (by
 * default, so explicit ids still insert); boolean mode becomes `boolean`, JSON mode
 * `text` (the JSON text as written, byte for byte: jsonb would re-order keys and
 * re-space it, so an export would not match the SQLite one), `real` `double precision`,
 * buffer blobs `bytea`. NOT NULL, single-column
 * primary keys and defaults carry over; anything unknown throws, so a new column type
 * in the SQLite schema cannot slip through unmapped.
 */
import { type Column, is, SQL } from 'drizzle-orm';
import { bigint, boolean, customType, doublePrecision, text } from 'drizzle-orm/pg-core';

const bytea = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => 'bytea' });

type Builder =
  | ReturnType<typeof bigint>
  | ReturnType<typeof boolean>
  | ReturnType<typeof text>
  | ReturnType<typeof doublePrecision>
  | ReturnType<typeof bytea>;

function baseOf(column: Column): Builder {
  const name = column.name;
  switch (column.columnType) {
    case 'SQLiteInteger':
    case 'SQLiteTimestamp':
      return bigint(name, { mode: 'number' });
    case 'SQLiteBoolean':
      return boolean(name);
    case 'SQLiteText':
      return text(name);
    case 'SQLiteTextJson':
      return text(name);
    case 'SQLiteReal':
      return doublePrecision(name);
    case 'SQLiteBlobBuffer':
      return bytea(name);
    default:
      throw new Error(`no PostgreSQL mapping for ${column.columnType} column ${name}`);
  }
}

/** The pg-core builder for `column` (a column of a sqlite-core table). */
export function pgColumnOf(column: Column): Builder {
  const builder = baseOf(column);
  if (column.notNull) builder.notNull();
  if (column.primary) builder.primaryKey();
  if ((column as Column & { autoIncrement?: boolean }).autoIncrement) {
    (builder as ReturnType<typeof bigint>).generatedByDefaultAsIdentity();
  }
  if (column.hasDefault && column.default !== undefined) {
    builder.default(is(column.default, SQL) ? column.default : (column.default as never));
  }
  return builder;
}

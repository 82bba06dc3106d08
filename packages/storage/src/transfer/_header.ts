/**
 * @module transfer/header
 * Reads and checks an export's first line before anything is written: the format, its
 * version, the schema level against this colony's, and every table and column against
 * this schema (so each later row can be checked against the header alone).
 */
import { MIGRATIONS } from '../_migrations.generated';
import { isRecord, parseJson } from './_json';
import { StoreTransferError } from './errors';
import { EXPORT_FORMAT, EXPORT_VERSION, type ExportHeader } from './format';
import { transferTables } from './tables';

export function readHeader(line: string | undefined): ExportHeader {
  const header = parseJson(line);
  if (!isRecord(header) || header.format !== EXPORT_FORMAT) {
    throw new StoreTransferError(
      'STORE_IMPORT_FORMAT',
      `not a colony store export: the first line is not a "${EXPORT_FORMAT}" header`,
    );
  }
  if (header.version !== EXPORT_VERSION) {
    throw new StoreTransferError(
      'STORE_IMPORT_VERSION',
      `colony store export format version ${JSON.stringify(header.version)} is not readable by this colony (it reads version ${EXPORT_VERSION})`,
      { file_version: header.version, supported_version: EXPORT_VERSION },
    );
  }
  checkSchema(header.schema);
  if (!Array.isArray(header.tables) || !isRecord(header.sequences)) {
    throw new StoreTransferError('STORE_IMPORT_MALFORMED', 'line 1: the header lacks its tables or sequences');
  }
  checkTables(header.tables);
  checkSequences(header.sequences);
  return header as unknown as ExportHeader;
}

function checkSchema(schema: unknown): void {
  const level = MIGRATIONS.length;
  const details = { file_schema: schema, colony_schema: level };
  if (typeof schema !== 'number' || !Number.isInteger(schema)) {
    throw new StoreTransferError('STORE_IMPORT_MALFORMED', 'line 1: the header has no schema level', details);
  }
  if (schema > level) {
    throw new StoreTransferError(
      'STORE_IMPORT_SCHEMA_TOO_NEW',
      `the export comes from a newer colony (schema ${schema}, this colony's ${level}): import it with a colony at least that new`,
      details,
    );
  }
  if (schema < level) {
    throw new StoreTransferError(
      'STORE_IMPORT_SCHEMA_TOO_OLD',
      `the export comes from an older colony (schema ${schema}, this colony's ${level}): import it with the colony that wrote it, then open the store with this one (its migrations bring it up to date)`,
      details,
    );
  }
}

function checkTables(tables: unknown[]): void {
  const known = new Map(transferTables().map((t) => [t.name, new Set(t.columns.map((c) => c.name))]));
  for (const table of tables) {
    const columns = isRecord(table) && Array.isArray(table.columns) ? table.columns : undefined;
    const name = isRecord(table) ? table.name : undefined;
    const have = typeof name === 'string' ? known.get(name) : undefined;
    const bad = columns?.find((c) => !isRecord(c) || typeof c.name !== 'string' || !have?.has(c.name));
    if (!have || !columns || bad !== undefined) {
      throw new StoreTransferError(
        'STORE_IMPORT_MALFORMED',
        `line 1: table ${JSON.stringify(name)} or one of its columns is not in this schema`,
        {
          table: name,
        },
      );
    }
  }
}

function checkSequences(sequences: Record<string, unknown>): void {
  const known = new Set(transferTables().map((t) => t.name));
  for (const [name, seq] of Object.entries(sequences)) {
    if (!known.has(name) || typeof seq !== 'number' || !Number.isSafeInteger(seq) || seq < 0) {
      throw new StoreTransferError(
        'STORE_IMPORT_MALFORMED',
        `line 1: a bad sequence for table ${JSON.stringify(name)}`,
        {
          table: name,
        },
      );
    }
  }
}

/**
 * @module transfer/errors
 * The refusals of `importStore`, each with a stable code (the CLI prints `<CODE>:
 * <message>` and exits 1). A refused import has written nothing: it runs in one
 * transaction, and every check that can fail before the first row runs before it.
 */

export const TRANSFER_ERROR_CODES = [
  /** The first line is not a colony-store header. */
  'STORE_IMPORT_FORMAT',
  /** A colony-store file of a format version this colony does not read. */
  'STORE_IMPORT_VERSION',
  /** Exported from a store of a newer schema than this colony's. */
  'STORE_IMPORT_SCHEMA_TOO_NEW',
  /** Exported from a store of an older schema: import it with that colony, then open it with this one. */
  'STORE_IMPORT_SCHEMA_TOO_OLD',
  /** The target store already holds rows. */
  'STORE_IMPORT_NOT_EMPTY',
  /** A line that is not a row of this format (bad JSON, unknown table or column, bad value, out of order). */
  'STORE_IMPORT_MALFORMED',
  /** The file ends before its end line: cut short. */
  'STORE_IMPORT_TRUNCATED',
  /** A row the store refused (a constraint): the file does not describe a consistent store. */
  'STORE_IMPORT_REJECTED',
  /** A text value holding U+0000, which a PostgreSQL text column cannot store (PostgreSQL targets only). */
  'STORE_IMPORT_NUL_IN_TEXT',
] as const;

export type TransferErrorCode = (typeof TRANSFER_ERROR_CODES)[number];

export class StoreTransferError extends Error {
  override readonly name = 'StoreTransferError';
  readonly code: TransferErrorCode;
  readonly details: Record<string, unknown>;

  constructor(code: TransferErrorCode, message: string, details: Record<string, unknown> = {}, cause?: unknown) {
    super(message, cause === undefined ? undefined : { cause });
    this.code = code;
    this.details = details;
  }
}

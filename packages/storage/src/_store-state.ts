/**
 * @module store-state
 * What state a store file is in, and the refusals that follow from it: SQLite's lock,
 * read-only and corruption errors turned into four stable codes (STORE_BUSY,
 * STORE_READ_ONLY, STORE_CORRUPT, STORE_TOO_NEW), each with a message that names the
 * file and says what to do. The codes are colony's contract codes; this package does not
 * depend on @swarm/tools, so the caller of `openStore` chooses the error class.
 */
import { accessSync, constants, existsSync, readFileSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import type { EmbeddedMigration } from './migrate';

export type StoreRefusalCode =
  | 'STORE_BUSY'
  | 'STORE_READ_ONLY'
  | 'STORE_CORRUPT'
  | 'STORE_TOO_NEW'
  | 'STORE_UNSUPPORTED';

/** Why a store refuses an operation: a stable code, a message naming the file, details. */
export interface StoreRefusal {
  readonly code: StoreRefusalCode;
  readonly message: string;
  readonly details: Record<string, unknown>;
}

/** Makes the error thrown for a refusal (core makes a ColonyError with the same code). */
export type RefuseStore = (refusal: StoreRefusal, cause?: unknown) => Error;

/** The error a refusal throws when the caller gives no `refuse`. */
export class StoreError extends Error {
  override readonly name = 'StoreError';
  readonly code: StoreRefusalCode;
  readonly details: Record<string, unknown>;

  constructor(refusal: StoreRefusal, cause?: unknown) {
    super(refusal.message, cause === undefined ? undefined : { cause });
    this.code = refusal.code;
    this.details = refusal.details;
  }
}

export const defaultRefuse: RefuseStore = (refusal, cause) => new StoreError(refusal, cause);

/** How long a caller refused with STORE_BUSY should wait before retrying. */
export const STORE_BUSY_RETRY_AFTER_MS = 250;

function codeOf(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : '';
}

/** SQLite saying the file is not a database, or that its pages do not add up. */
export function isCorrupt(error: unknown): boolean {
  const code = codeOf(error);
  return code.startsWith('SQLITE_CORRUPT') || code === 'SQLITE_NOTADB';
}

/** The refusal an SQLite error stands for, or undefined when it is some other failure. */
export function storeRefusalOf(error: unknown, path: string, busyTimeoutMs: number): StoreRefusal | undefined {
  const code = codeOf(error);
  const sqliteMessage = error instanceof Error ? error.message : String(error);
  if (code.startsWith('SQLITE_BUSY')) {
    return {
      code: 'STORE_BUSY',
      message: `the store ${path} stayed locked by another writer for more than ${busyTimeoutMs} ms; nothing was written: retry the call`,
      details: { retryable: true, retry_after_ms: STORE_BUSY_RETRY_AFTER_MS, db_path: path },
    };
  }
  if (code.startsWith('SQLITE_READONLY')) {
    return {
      code: 'STORE_READ_ONLY',
      message: `the store ${path} is read-only for this process (${sqliteMessage}): reads are served, writes are refused. Make the file and its folder writable, or point --db at a writable copy.`,
      details: { db_path: path },
    };
  }
  if (isCorrupt(error)) {
    return {
      code: 'STORE_CORRUPT',
      message: `the store ${path} is not a readable colony database (SQLite: ${sqliteMessage}). Restore it from a backup, or move it aside (keep it for recovery) and colony creates a fresh store at that path.`,
      details: { db_path: path },
    };
  }
  return undefined;
}

/** Whether this process can write the database (and the files SQLite keeps beside it). */
export function canWrite(path: string): boolean {
  const writable = (p: string) => {
    try {
      accessSync(p, constants.W_OK);
      return true;
    } catch {
      return false;
    }
  };
  if (!writable(path)) return false;
  if (writable(dirname(path))) return true;
  // A folder we cannot write is fine while the WAL's side files exist and are ours to write.
  return ['-wal', '-shm'].every((suffix) => existsSync(path + suffix) && writable(path + suffix));
}

/**
 * A read-only in-memory copy of the file as it is now: for a WAL store whose folder is
 * not writable and has no `-shm` file, which SQLite cannot read in place. The header's
 * WAL flag is cleared in the copy (a deserialized database cannot use a WAL).
 */
export function openSnapshot(path: string): Database.Database {
  const image = readFileSync(path);
  if (image.length >= 20 && image[18] === 2 && image[19] === 2) {
    image[18] = 1;
    image[19] = 1;
  }
  return new Database(image, { readonly: true });
}

/**
 * Throws SQLITE_CORRUPT when the file is shorter than the pages its header counts and no
 * WAL holds the rest: a truncated copy, which would otherwise fail call by call.
 */
export function checkNotTruncated(sqlite: Database.Database, path: string): void {
  const walHolds = () => existsSync(`${path}-wal`) && statSync(`${path}-wal`).size > 0;
  if (walHolds()) return;
  const pages = Number(sqlite.pragma('page_count', { simple: true }));
  const pageSize = Number(sqlite.pragma('page_size', { simple: true }));
  const size = statSync(path).size;
  // Another process may have begun writing (a WAL) since the first look: the page count
  // read through it then exceeds the file without anything being truncated.
  if (size < pages * pageSize && !walHolds()) {
    const error = new Error(
      `the file is truncated: ${size} bytes where its header counts ${pages} pages of ${pageSize} bytes`,
    ) as Error & { code: string };
    error.code = 'SQLITE_CORRUPT';
    throw error;
  }
}

const MIGRATIONS_TABLE = '__drizzle_migrations';

/**
 * STORE_TOO_NEW when the store has migrations this build does not know (a newer colony
 * wrote it); undefined when its schema is this build's or older (then migrations apply).
 * Versions are schema versions: the number of migrations applied.
 */
export function schemaState(
  sqlite: Database.Database,
  known: readonly EmbeddedMigration[],
  path: string,
): StoreRefusal | undefined {
  const exists = sqlite.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?`).get(MIGRATIONS_TABLE);
  if (!exists) return undefined;
  const applied = (
    sqlite.prepare(`SELECT created_at AS at FROM ${MIGRATIONS_TABLE} ORDER BY created_at`).all() as Array<{
      at: number | string | null;
    }>
  ).map((row) => Number(row.at));
  return tooNewRefusal(applied, known, path);
}

/**
 * STORE_TOO_NEW when `applied` (the created_at of each applied migration, in order) holds
 * one this build does not know and that is newer than its newest; undefined otherwise.
 * Shared by the SQLite and PostgreSQL stores; `location` names the store in the message.
 */
export function tooNewRefusal(
  applied: readonly number[],
  known: readonly EmbeddedMigration[],
  location: string,
): StoreRefusal | undefined {
  const knownMillis = new Set(known.map((m) => m.folderMillis));
  const newest = known.at(-1)?.folderMillis ?? -1;
  if (!applied.some((at) => at > newest && !knownMillis.has(at))) return undefined;
  const storeVersion = applied.length;
  const buildVersion = known.length;
  return {
    code: 'STORE_TOO_NEW',
    message: `the store ${location} was written by a newer colony (store schema version ${storeVersion}, this colony's schema version ${buildVersion}): reads are served, writes are refused. Upgrade colony to write to it.`,
    details: {
      db_path: location,
      store_schema_version: storeVersion,
      colony_schema_version: buildVersion,
      store_newest_migration: applied.at(-1),
      colony_newest_migration: newest,
    },
  };
}

/**
 * A connection that only reads. In WAL mode SQLite needs the `-shm` file beside the
 * database; when it is missing and the folder is not writable, the connection reads a
 * snapshot of the file taken now instead (later writes by others are not seen).
 */
export function openReadOnly(path: string): Database.Database {
  const sqlite = new Database(path, { readonly: true, fileMustExist: true });
  try {
    sqlite.prepare('SELECT count(*) FROM sqlite_master').get();
    return sqlite;
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code !== 'SQLITE_READONLY_DIRECTORY' && code !== 'SQLITE_CANTOPEN') throw error;
    sqlite.close();
    return openSnapshot(path);
  }
}

export function readOnlyRefusal(path: string): StoreRefusal {
  return {
    code: 'STORE_READ_ONLY',
    message: `the store ${path} is read-only for this process: reads are served, writes are refused. Make the file and its folder writable (or point --db at a writable copy) to write.`,
    details: { db_path: path },
  };
}

/**
 * @module transfer/format
 * The colony-store export format, version 1: JSON lines. Line 1 is the header
 * `{"format":"colony-store","version":1,"schema":<migration level>,"exported_at":<ISO
 * time or null>,"tables":[{"name","columns":[{"name","type"}],"key"}],"sequences":{}}`;
 * then one line per row, `{"t":"<table>","r":{"<column>":<value>}}`, tables in header
 * order (foreign-key dependency order), rows in primary-key order; the last line is
 * `{"end":{"rows":<total>,"counts":{"<table>":<rows>}}}`, so a file cut at a line
 * boundary is told from a whole one. `sequences` holds SQLite's AUTOINCREMENT
 * counters, so ids handed out once are not handed out again after an import.
 */
import type { TransferTable } from './tables';

export const EXPORT_FORMAT = 'colony-store';
export const EXPORT_VERSION = 1;

export interface ExportHeader {
  readonly format: typeof EXPORT_FORMAT;
  readonly version: typeof EXPORT_VERSION;
  readonly schema: number;
  readonly exported_at: string | null;
  readonly tables: ReadonlyArray<Omit<TransferTable, 'references'>>;
  readonly sequences: Readonly<Record<string, number>>;
}

export interface ExportEnd {
  readonly end: { readonly rows: number; readonly counts: Readonly<Record<string, number>> };
}

/** What an export or an import moved: rows per table and in all. */
export interface TransferCounts {
  readonly schema: number;
  readonly rows: number;
  readonly tables: Readonly<Record<string, number>>;
}

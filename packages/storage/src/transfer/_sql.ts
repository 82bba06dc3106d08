/** @module transfer/sql SQL text helpers shared by export and import. */

/** An identifier quoted for SQLite. */
export function quoteName(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

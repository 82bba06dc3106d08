/**
 * @module format
 * Small pieces of the human renderings: timestamps, one-line text, aligned columns.
 */

/** Epoch milliseconds as an ISO-8601 UTC string. */
export function iso(ts: number): string {
  return new Date(ts).toISOString();
}

/** Collapses whitespace (newlines included) so a value fits on one output line. */
export function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** Rows of cells padded so each column lines up; the last cell is never padded. */
export function columns(rows: readonly (readonly string[])[]): string[] {
  const widths: number[] = [];
  for (const row of rows) {
    row.forEach((cell, i) => {
      widths[i] = Math.max(widths[i] ?? 0, cell.length);
    });
  }
  return rows.map((row) =>
    row
      .map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i] ?? 0)))
      .join('  ')
      .trimEnd(),
  );
}

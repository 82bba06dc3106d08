/**
 * @module install/toml-table
 * Setting one table of a TOML config (Codex's `[mcp_servers.colony]`) while keeping
 * the rest of the file byte for byte: comments, order and formatting elsewhere are
 * the user's. The file is parsed with smol-toml to validate it and to read the
 * table; the table's own section is then replaced (or appended) as text, and the
 * result is parsed again and compared with what was intended before anything is
 * written. A table defined in a form this cannot rewrite by section (inline table,
 * dotted keys) is refused rather than guessed at.
 */
import { isDeepStrictEqual } from 'node:util';
import { parse, stringify } from 'smol-toml';
import { type ConfigText, InstallError, isPlainObject } from './_config-file';
import type { ChangeStatus } from './_hook-entries';

export interface TomlTableChange {
  readonly status: ChangeStatus;
  /** The new file text (the old one when unchanged). */
  readonly text: string;
}

/**
 * Sets the table at `[parent].[name]` to `fields` merged over what it holds (keys the
 * user added, like env, stay).
 */
export function upsertTomlTable(
  file: ConfigText,
  parent: string,
  name: string,
  fields: Record<string, unknown>,
): TomlTableChange {
  const before = parseToml(file);
  const parentValue = before[parent];
  if (parentValue !== undefined && !isPlainObject(parentValue)) {
    throw new InstallError(`${file.path}: ${parent} is not a table; fix it by hand, the file was left untouched`);
  }
  const existing = parentValue?.[name];
  if (existing !== undefined && !isPlainObject(existing)) {
    throw new InstallError(
      `${file.path}: ${parent}.${name} is not a table; fix it by hand, the file was left untouched`,
    );
  }
  const wanted = { ...(existing ?? {}), ...fields };
  if (existing && same(existing, wanted)) return { status: 'unchanged', text: file.text };

  const section = stringify({ [parent]: { [name]: wanted } });
  const lines = file.text.split('\n');
  const header = lines.findIndex((line) => tableName(line) === `${parent}.${name}`);
  let text: string;
  if (header >= 0) {
    const end = sectionEnd(lines, header, `${parent}.${name}`);
    text = [...lines.slice(0, header), section.trimEnd(), ...lines.slice(end)].join('\n');
  } else if (existing) {
    throw new InstallError(
      `${file.path} defines ${parent}.${name} as an inline table or dotted keys, which colony install does not rewrite; make it a [${parent}.${name}] section or remove it, the file was left untouched`,
    );
  } else {
    // One blank line before the new table, and nothing else touched: uninstall takes exactly this away.
    const gap = file.text === '' ? '' : file.text.endsWith('\n') ? '\n' : '\n\n';
    text = `${file.text}${gap}${section.trimEnd()}\n`;
  }

  // Everything but this table must read exactly as before, and the table as wanted.
  const after = parseToml({ ...file, text });
  const { [name]: written, ...restAfter } = (after[parent] ?? {}) as Record<string, unknown>;
  const { [name]: _old, ...restBefore } = (parentValue ?? {}) as Record<string, unknown>;
  const { [parent]: _p1, ...othersAfter } = after;
  const { [parent]: _p2, ...othersBefore } = before;
  if (!same(written, wanted) || !same(restAfter, restBefore) || !same(othersAfter, othersBefore)) {
    throw new InstallError(
      `${file.path}: rewriting [${parent}.${name}] would change other settings; edit it by hand, the file was left untouched`,
    );
  }
  return { status: existing ? 'updated' : 'added', text };
}

/** Deep equality by value: smol-toml builds null-prototype objects, plain ones compare equal to them. */
export function same(a: unknown, b: unknown): boolean {
  return isDeepStrictEqual(structuredClone(a), structuredClone(b));
}

export function parseToml(file: ConfigText): Record<string, unknown> {
  try {
    return parse(file.text) as Record<string, unknown>;
  } catch (error) {
    const reason = (error as Error).message.split('\n')[0];
    throw new InstallError(`${file.path} is not valid TOML (${reason}); fix or move it, it was left untouched`);
  }
}

/** The dotted name of a `[table]` or `[[array]]` header line (quotes dropped); null otherwise. */
export function tableName(line: string): string | null {
  const match = /^\s*\[\[?\s*([^\][#]+?)\s*\]\]?\s*(?:#.*)?$/.exec(line);
  if (!match?.[1]) return null;
  return match[1]
    .split('.')
    .map((part) => part.trim().replace(/^(["'])(.*)\1$/, '$2'))
    .join('.');
}

/**
 * The line after the `[name]` section starting at `header` (its sub-tables included),
 * leaving out the blank lines and comments that lead into the next table.
 */
export function sectionEnd(lines: readonly string[], header: number, name: string): number {
  let end = header + 1;
  while (end < lines.length) {
    const next = tableName(lines[end] ?? '');
    if (next !== null && !next.startsWith(`${name}.`)) break;
    end++;
  }
  while (end > header + 1 && /^\s*(#.*)?$/.test(lines[end - 1] ?? '')) end--;
  return end;
}

/**
 * @module install/toml-removal
 * Taking one `[parent.name]` section out of a TOML config as text, with the blank line
 * install put before it, so the rest of the file stays byte for byte. The result is
 * parsed and compared with the file minus that table before anything is written.
 */
import { type ConfigText, InstallError, isPlainObject } from './_config-file';
import type { ChangeStatus } from './_hook-entries';
import { parseToml, same, sectionEnd, tableName } from './_toml-table';

export interface TomlRemoval {
  readonly status: ChangeStatus;
  readonly text: string;
}

export function removeTomlTable(file: ConfigText, parent: string, name: string): TomlRemoval {
  const before = parseToml(file);
  const parentValue = before[parent];
  if (!isPlainObject(parentValue) || parentValue[name] === undefined) return { status: 'absent', text: file.text };
  const lines = file.text.split('\n');
  const header = lines.findIndex((line) => tableName(line) === `${parent}.${name}`);
  if (header < 0) {
    throw new InstallError(
      `${file.path} defines ${parent}.${name} as an inline table or dotted keys, which colony uninstall does not rewrite; remove it by hand, the file was left untouched`,
    );
  }
  const end = sectionEnd(lines, header, `${parent}.${name}`);
  const start = header > 0 && (lines[header - 1] ?? '').trim() === '' ? header - 1 : header;
  const text = [...lines.slice(0, start), ...lines.slice(end)].join('\n');

  const { [name]: _removed, ...restBefore } = parentValue;
  const wanted = { ...before };
  if (Object.keys(restBefore).length === 0) delete wanted[parent];
  else wanted[parent] = restBefore;
  const after = parseToml({ ...file, text });
  if (!same(after, wanted) && !same(after, { ...wanted, [parent]: restBefore })) {
    throw new InstallError(
      `${file.path}: removing [${parent}.${name}] would change other settings; remove it by hand, the file was left untouched`,
    );
  }
  return { status: 'removed', text };
}

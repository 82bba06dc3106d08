/**
 * @module specs/spec-deltas
 * Deltas of a spec change: add, modify or remove one row of §V, §T or §B. Applying a
 * delta edits exactly one line of SPEC.md (a missing section or table is created in
 * the canonical place), so unrelated lines stay byte-identical for the three-way merge.
 */
import {
  findRow,
  findSection,
  INVARIANT_LEVELS,
  isTableKey,
  normalizeRowId,
  parseSpec,
  renderRowIn,
  SECTION_KEYS,
  SECTION_NAMES,
  type SpecSection,
  TABLE_COLUMNS,
  type TableKey,
  tableHeader,
} from './spec-format';

export const DELTA_OPS = ['add', 'modify', 'remove'] as const;
export type DeltaOp = (typeof DELTA_OPS)[number];

export interface SpecDelta {
  readonly op: DeltaOp;
  /** A normalised row id, e.g. `V.3`. */
  readonly target: string;
  /** The row's cells after the id (empty for remove). */
  readonly cells: readonly string[];
}

export type DeltaProblem = 'target' | 'cells' | 'exists' | 'missing';

/** A delta that cannot apply: an expected outcome the service turns into an error code. */
export class DeltaError extends Error {
  override readonly name = 'DeltaError';
  constructor(
    readonly problem: DeltaProblem,
    readonly target: string,
    message: string,
  ) {
    super(message);
  }
}

/** Checks a delta's shape (target section, cell count, invariant level); returns the normalised delta. */
export function checkDelta(op: DeltaOp, target: string, cells: readonly string[]): SpecDelta {
  const id = normalizeRowId(target);
  const key = id?.[0] ?? '';
  if (!id || !isTableKey(key)) {
    throw new DeltaError('target', target, `target "${target}" is not a §V, §T or §B row id (like V.3 or T.12)`);
  }
  if (op === 'remove') return { op, target: id, cells: [] };
  const width = TABLE_COLUMNS[key].length - 1;
  if (cells.length !== width) {
    throw new DeltaError(
      'cells',
      id,
      `${id} takes ${width} cells (${TABLE_COLUMNS[key].slice(1).join(', ')}), got ${cells.length}`,
    );
  }
  if (key === 'V' && !(INVARIANT_LEVELS as readonly string[]).includes(cells[0] ?? '')) {
    throw new DeltaError('cells', id, `${id} level must be one of ${INVARIANT_LEVELS.join(', ')}`);
  }
  return { op, target: id, cells: [...cells] };
}

/** Applies deltas in order; throws DeltaError for a row that exists (add) or is missing (modify, remove). */
export function applyDeltas(text: string, deltas: readonly SpecDelta[]): string {
  return deltas.reduce(applyDelta, text);
}

export function applyDelta(text: string, delta: SpecDelta): string {
  const doc = parseSpec(text);
  const lines = [...doc.lines];
  const row = findRow(doc, delta.target);
  const line = renderRowIn(findSection(doc, delta.target[0] ?? ''), delta.target, delta.cells, row);
  if (delta.op === 'add') {
    if (row) throw new DeltaError('exists', delta.target, `${delta.target} already exists`);
    const key = delta.target[0] as TableKey;
    const section = findSection(doc, key);
    if (!section) insertSection(lines, doc.sections, key, line, doc.title === '' && text.trim() === '');
    else if (section.table) lines.splice(section.table.end, 0, line);
    else lines.splice(contentEnd(lines, section), 0, '', ...tableHeader(key), line);
    return lines.join('\n');
  }
  if (!row) throw new DeltaError('missing', delta.target, `${delta.target} does not exist`);
  if (delta.op === 'modify') lines.splice(row.line, 1, line);
  else lines.splice(row.line, 1);
  return lines.join('\n');
}

/** Index after the last non-blank line of a section. */
function contentEnd(lines: readonly string[], section: SpecSection): number {
  let end = section.end;
  while (end > section.start + 1 && (lines[end - 1] ?? '').trim() === '') end--;
  return end;
}

function insertSection(lines: string[], sections: readonly SpecSection[], key: TableKey, row: string, empty: boolean) {
  const block = [`## §${key} ${SECTION_NAMES[key]}`, '', ...tableHeader(key), row];
  if (empty) {
    lines.splice(0, lines.length, '# Spec', '', ...block, '');
    return;
  }
  const order = SECTION_KEYS.indexOf(key);
  const next = sections.find((s) => {
    const k = SECTION_KEYS.indexOf(s.key as TableKey);
    return k > order;
  });
  if (next) {
    lines.splice(next.start, 0, ...block, '');
    return;
  }
  let end = lines.length;
  while (end > 0 && (lines[end - 1] ?? '').trim() === '') end--;
  lines.splice(end, 0, '', ...block);
  if (lines[lines.length - 1] !== '') lines.push('');
}

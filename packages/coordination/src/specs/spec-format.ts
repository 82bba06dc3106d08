/**
 * @module specs/spec-format
 * SPEC.md, the root spec of a repository (defined in openspec/specs/spec-format/spec.md):
 * `# <title>`, then `## §<letter> <name>` sections. §G goal, §C constraints and §I
 * interfaces are prose; §V invariants, §T tasks and §B failures carry a markdown table
 * whose first column is a row id (`V.3`, `T.12`, `B.1`).
 *
 * The vocabulary of existing repositories is read too: lowercase section names
 * (`## §V invariants`, `## §B bugs`), tables without outer pipes whose header names the
 * columns (`id|rule|cites`, `id|status|task|cites`, `id|bug|cites`) over a `-|-|-`
 * separator, ids without the dot (`V1`), and `V1.always` marking an always-on
 * invariant. Cells are read by column name; a delta's row is written in the style of
 * the table it lands in (see `renderRowIn`).
 *
 * Edits are line-local: a delta replaces, inserts or deletes exactly one table line and
 * leaves every other byte alone, so a three-way merge sees only the lines that changed.
 */
import { nodeCrypto } from '../_crypto';

export const SECTION_KEYS = ['G', 'C', 'I', 'V', 'T', 'B'] as const;
export type SectionKey = (typeof SECTION_KEYS)[number];

export const SECTION_NAMES: Readonly<Record<SectionKey, string>> = {
  G: 'Goal',
  C: 'Constraints',
  I: 'Interfaces',
  V: 'Invariants',
  T: 'Tasks',
  B: 'Failures',
};

/** Table sections and their columns (the first is always `id`). */
export const TABLE_COLUMNS = {
  V: ['id', 'level', 'rule'],
  T: ['id', 'status', 'task', 'cites'],
  B: ['id', 'signature', 'test_id', 'count', 'summary'],
} as const;
export type TableKey = keyof typeof TABLE_COLUMNS;

export const INVARIANT_LEVELS = ['must', 'should', 'always'] as const;

export function isTableKey(key: string): key is TableKey {
  return key === 'V' || key === 'T' || key === 'B';
}

export interface SpecRow {
  /** Normalised id, e.g. `V.3`. */
  readonly id: string;
  /** Whether the id carries `.always` (`V1.always`): an always-on invariant. */
  readonly always: boolean;
  /** The cells after the id column. */
  readonly cells: string[];
  /** 0-based line index in the document. */
  readonly line: number;
}

export interface SpecSection {
  /** The letter after `§`, or '' for a heading without one. */
  readonly key: string;
  /** The heading text after `## `. */
  readonly heading: string;
  /** 0-based index of the heading line; the body runs to `end` (exclusive). */
  readonly start: number;
  readonly end: number;
  /** Raw body text (the lines after the heading). */
  readonly body: string;
  /** The body without its table lines, trimmed. */
  readonly prose: string;
  /** Table rows, for §V, §T and §B (null for prose sections). */
  readonly rows: SpecRow[] | null;
  /** Line range of the table, when there is one. */
  readonly table: { readonly start: number; readonly end: number } | null;
  /** Column names, lowercase, `id` first: the table's header, else the canonical ones. */
  readonly columns: readonly string[];
  /** Whether the table is written without outer pipes (`V1|rule|cites`). */
  readonly compact: boolean;
}

export interface SpecDocument {
  readonly title: string;
  readonly sections: SpecSection[];
  readonly lines: string[];
}

/** sha256 of the bytes, hex: the root hash of a SPEC.md. */
export function rootHash(text: string): string {
  return nodeCrypto().createHash('sha256').update(text, 'utf8').digest('hex');
}

const ID = /^([A-Za-z])\.?(\d+)(\.always)?$/i;

/** `T5` -> `T.5`, `v.03` -> `V.3`, `V1.always` -> `V.1`; null when it is not a row id. */
export function normalizeRowId(id: string): string | null {
  const m = ID.exec(id.trim());
  if (!m?.[1] || !m[2]) return null;
  return `${m[1].toUpperCase()}.${Number(m[2])}`;
}

/** The row id of a table line (with or without outer pipes), or null. */
export function rowIdOfLine(line: string): string | null {
  if (!line.includes('|')) return null;
  return normalizeRowId(splitRow(line)[0] ?? '');
}

/** Splits one markdown table line into cells, honouring `\|` escapes. */
export function splitRow(line: string): string[] {
  let s = line.trim();
  if (s.startsWith('|')) s = s.slice(1);
  if (s.endsWith('|') && !s.endsWith('\\|')) s = s.slice(0, -1);
  return s.split(/(?<!\\)\|/).map((cell) => cell.trim().replaceAll('\\|', '|'));
}

/** One table line: `| id | cell | cell |`, pipes inside cells escaped. */
export function renderRow(cells: readonly string[]): string {
  return `| ${cells.map((c) => c.replaceAll('|', '\\|')).join(' | ')} |`;
}

export function tableHeader(key: TableKey): string[] {
  const columns = TABLE_COLUMNS[key];
  return [renderRow(columns), renderRow(columns.map(() => '---'))];
}

const HEADING = /^## (.*)$/;
const SECTION_HEADING = /^§([A-Za-z])\b/;
const SEPARATOR = /^\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?$/;

/** A table line of a §V/§T/§B section: piped, or a header, separator or row without outer pipes. */
function isTableLine(line: string): boolean {
  const trimmed = line.trim();
  if (trimmed.startsWith('|')) return true;
  if (!trimmed.includes('|')) return false;
  const first = (splitRow(trimmed)[0] ?? '').toLowerCase();
  return first === 'id' || normalizeRowId(first) !== null || SEPARATOR.test(trimmed);
}

/** Parses SPEC.md text. Never throws: what it does not recognise stays in prose. */
export function parseSpec(text: string): SpecDocument {
  const lines = text.split('\n');
  const starts: number[] = [];
  let title = '';
  lines.forEach((raw, i) => {
    const line = raw.replace(/\r$/, '');
    if (HEADING.test(line)) starts.push(i);
    else if (!title && starts.length === 0 && line.startsWith('# ')) title = line.slice(2).trim();
  });
  const sections = starts.map((start, n) => parseSection(lines, start, starts[n + 1] ?? lines.length));
  return { title, sections, lines };
}

function parseSection(lines: string[], start: number, end: number): SpecSection {
  const heading = (HEADING.exec(lines[start]?.replace(/\r$/, '') ?? '')?.[1] ?? '').trim();
  const key = SECTION_HEADING.exec(heading)?.[1]?.toUpperCase() ?? '';
  const bodyLines = lines.slice(start + 1, end);
  let rows: SpecRow[] | null = null;
  let table: { start: number; end: number } | null = null;
  let columns: readonly string[] = isTableKey(key) ? TABLE_COLUMNS[key] : ['id'];
  let compact = false;
  const prose: string[] = [];
  if (isTableKey(key)) {
    rows = [];
    bodyLines.forEach((raw, k) => {
      const line = raw.replace(/\r$/, '');
      const i = start + 1 + k;
      if (!isTableLine(line)) {
        prose.push(line);
        return;
      }
      if (!table) compact = !line.trimStart().startsWith('|');
      table = table ? { start: table.start, end: i + 1 } : { start: i, end: i + 1 };
      if (SEPARATOR.test(line.trim())) return;
      const [first = '', ...cells] = splitRow(line);
      const id = normalizeRowId(first);
      if (id) rows?.push({ id, always: /\.always$/i.test(first.trim()), cells, line: i });
      else if (rows?.length === 0 && first.toLowerCase() === 'id') columns = splitRow(line).map((c) => c.toLowerCase());
    });
  } else {
    prose.push(...bodyLines.map((l) => l.replace(/\r$/, '')));
  }
  return {
    key,
    heading,
    start,
    end,
    body: bodyLines.join('\n'),
    prose: prose.join('\n').trim(),
    rows,
    table,
    columns,
    compact,
  };
}

/** A row's cell under a column name (`rule`, `status`, ...), or undefined without that column. */
export function cellOf(section: SpecSection, row: SpecRow, column: string): string | undefined {
  const index = section.columns.indexOf(column);
  return index > 0 ? (row.cells[index - 1] ?? '') : undefined;
}

/**
 * A delta's row as a line of `section`'s table. Cells come in the canonical layout
 * (TABLE_COLUMNS); a compact table gets them by column name without outer pipes, the
 * id without its dot, and an `always` invariant level as the `.always` id suffix when
 * the table has no level column (`bug` takes a failure's summary). A column the canonical
 * layout lacks (`cites` of an invariant) keeps the value of `previous`, the row modified.
 */
export function renderRowIn(
  section: SpecSection | undefined,
  id: string,
  cells: readonly string[],
  previous?: SpecRow,
): string {
  const key = id[0] ?? '';
  if (!section?.compact || !isTableKey(key)) return renderRow([id, ...cells]);
  const canonical = TABLE_COLUMNS[key] as readonly string[];
  const byName = new Map(canonical.slice(1).map((name, i) => [name, cells[i] ?? '']));
  if (byName.has('summary')) byName.set('bug', byName.get('summary') ?? '');
  const always = key === 'V' && byName.get('level') === 'always' && !section.columns.includes('level');
  const compactId = `${id.replace('.', '')}${always ? '.always' : ''}`;
  const out = section.columns.slice(1).map((name, i) => byName.get(name) ?? previous?.cells[i] ?? '');
  return [compactId, ...out].map((c) => c.replaceAll('|', '\\|')).join('|');
}

export function findSection(doc: SpecDocument, key: string): SpecSection | undefined {
  return doc.sections.find((s) => s.key === key);
}

export function findRow(doc: SpecDocument, id: string): SpecRow | undefined {
  const norm = normalizeRowId(id);
  if (!norm) return undefined;
  return findSection(doc, norm[0] ?? '')?.rows?.find((r) => r.id === norm);
}

/** The next free id of a table section, counting `taken` ids too (e.g. pending deltas). */
export function nextRowId(doc: SpecDocument, key: TableKey, taken: readonly string[] = []): string {
  const numbers = [...(findSection(doc, key)?.rows ?? []).map((r) => r.id), ...taken]
    .filter((id) => id.startsWith(`${key}.`))
    .map((id) => Number(id.slice(2)));
  return `${key}.${Math.max(0, ...numbers) + 1}`;
}

/** A spec as data: what `writeSpec` renders and `toSpecModel` reads back. */
export interface SpecModel {
  readonly title: string;
  readonly sections: ReadonlyArray<{
    readonly key: SectionKey;
    readonly prose: string;
    readonly rows: ReadonlyArray<{ readonly id: string; readonly cells: readonly string[] }>;
  }>;
}

/** Renders a SPEC.md from data, in the canonical layout. */
export function writeSpec(model: SpecModel): string {
  const out = [`# ${model.title}`];
  for (const section of model.sections) {
    out.push('', `## §${section.key} ${SECTION_NAMES[section.key]}`);
    if (section.prose) out.push('', section.prose);
    if (isTableKey(section.key)) {
      out.push('', ...tableHeader(section.key), ...section.rows.map((r) => renderRow([r.id, ...r.cells])));
    }
  }
  return `${out.join('\n')}\n`;
}

/** Reads a parsed document back into data (sections with a § letter only). */
export function toSpecModel(doc: SpecDocument): SpecModel {
  return {
    title: doc.title,
    sections: doc.sections
      .filter((s): s is SpecSection & { key: SectionKey } => (SECTION_KEYS as readonly string[]).includes(s.key))
      .map((s) => ({ key: s.key, prose: s.prose, rows: (s.rows ?? []).map((r) => ({ id: r.id, cells: r.cells })) })),
  };
}

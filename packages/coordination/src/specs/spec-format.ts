/**
 * @module specs/spec-format
 * SPEC.md, the root spec of a repository (defined in openspec/specs/spec-format/spec.md):
 * `# <title>`, then `## §<letter> <name>` sections. §G goal, §C constraints and §I
 * interfaces are prose; §V invariants, §T tasks and §B failures carry a markdown table
 * whose first column is a row id (`V.3`, `T.12`, `B.1`).
 *
 * Edits are line-local: a delta replaces, inserts or deletes exactly one table line and
 * leaves every other byte alone, so a three-way merge sees only the lines that changed.
 */
import { createHash } from 'node:crypto';

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
}

export interface SpecDocument {
  readonly title: string;
  readonly sections: SpecSection[];
  readonly lines: string[];
}

/** sha256 of the bytes, hex: the root hash of a SPEC.md. */
export function rootHash(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

const ID = /^([A-Za-z])\.?(\d+)$/;

/** `T5` -> `T.5`, `v.03` -> `V.3`; null when it is not a row id. */
export function normalizeRowId(id: string): string | null {
  const m = ID.exec(id.trim());
  if (!m?.[1] || !m[2]) return null;
  return `${m[1].toUpperCase()}.${Number(m[2])}`;
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
const SEPARATOR = /^\|?\s*:?-{3,}/;

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
  const prose: string[] = [];
  if (isTableKey(key)) {
    rows = [];
    bodyLines.forEach((raw, k) => {
      const line = raw.replace(/\r$/, '');
      const i = start + 1 + k;
      if (!line.trimStart().startsWith('|')) {
        prose.push(line);
        return;
      }
      table = table ? { start: table.start, end: i + 1 } : { start: i, end: i + 1 };
      if (SEPARATOR.test(line.trim())) return;
      const [first = '', ...cells] = splitRow(line);
      const id = normalizeRowId(first);
      if (id) rows?.push({ id, cells, line: i });
    });
  } else {
    prose.push(...bodyLines.map((l) => l.replace(/\r$/, '')));
  }
  return { key, heading, start, end, body: bodyLines.join('\n'), prose: prose.join('\n').trim(), rows, table };
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

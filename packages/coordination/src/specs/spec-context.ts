/**
 * @module specs/spec-context
 * What agents read from a SPEC.md: the parsed sections with row counts and the
 * always-invariants (spec_read), and the cite-scoped context of one §T task
 * (spec_build_context): its row, the rows it cites and every §V `always` row.
 */
import type { SpecContextResult, SpecInvariantRef, SpecReadResult } from '@swarm/tools';
import {
  findRow,
  findSection,
  normalizeRowId,
  parseSpec,
  renderRow,
  rootHash,
  type SpecDocument,
  type SpecRow,
} from './spec-format';

export function alwaysInvariants(doc: SpecDocument): SpecRow[] {
  return (findSection(doc, 'V')?.rows ?? []).filter((r) => r.cells[0]?.toLowerCase() === 'always');
}

const ref = (row: SpecRow): SpecInvariantRef => ({ id: row.id, rule: row.cells[1] ?? '' });

export function readSpec(text: string): SpecReadResult {
  const doc = parseSpec(text);
  return {
    rootHash: rootHash(text),
    title: doc.title,
    sections: doc.sections.map((s) => ({
      id: s.key,
      heading: s.heading,
      body: s.body,
      ...(s.rows ? { row_count: s.rows.length } : {}),
    })),
    alwaysInvariants: alwaysInvariants(doc).map(ref),
  };
}

/** Ids in a cites cell: `V.1, V.3` or `V1 V3`. */
export function parseCites(cell: string): string[] {
  const ids = cell
    .split(/[\s,;]+/)
    .map((s) => normalizeRowId(s))
    .filter((id): id is string => id !== null);
  return [...new Set(ids)];
}

/** The context of a §T row, or null when the spec has no such task. */
export function taskContext(text: string, taskId: string): SpecContextResult | null {
  const doc = parseSpec(text);
  const id = normalizeRowId(taskId);
  const task = id?.startsWith('T.') ? findRow(doc, id) : undefined;
  if (!task) return null;
  const [status = '', title = '', cites = ''] = task.cells;
  const citedIds = parseCites(cites);
  const always = alwaysInvariants(doc);
  const line = (row: SpecRow) => renderRow([row.id, ...row.cells]);
  const cited = citedIds.map((c) => {
    const row = findRow(doc, c);
    return row ? line(row) : `| ${c} | (missing from SPEC.md) |`;
  });
  const rendered = [
    `## ${task.id} ${title} (${status})`,
    '',
    '### Cited',
    '',
    ...(cited.length ? cited : ['(none)']),
    '',
    '### Always',
    '',
    ...(always.length ? always.map(line) : ['(none)']),
    '',
  ].join('\n');
  return { task_id: task.id, cited_ids: citedIds, always_invariants: always.map(ref), rendered };
}

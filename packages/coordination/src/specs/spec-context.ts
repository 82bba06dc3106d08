/**
 * @module specs/spec-context
 * What agents read from a SPEC.md: the parsed sections with row counts and the
 * always-invariants (spec_read), and the cite-scoped context of one §T task
 * (spec_build_context): its row, the rows it cites and every §V `always` row.
 */
import type { SpecContextResult, SpecInvariantRef, SpecReadResult } from '@swarm/tools';
import {
  cellOf,
  findRow,
  findSection,
  normalizeRowId,
  parseSpec,
  renderRow,
  rootHash,
  type SpecDocument,
  type SpecRow,
  type SpecSection,
} from './spec-format';

/** §V rows marked always-on: an `always` level cell, or the `.always` id suffix (`V1.always`). */
export function alwaysInvariants(doc: SpecDocument): SpecRow[] {
  const section = findSection(doc, 'V');
  if (!section) return [];
  return (section.rows ?? []).filter((r) => r.always || cellOf(section, r, 'level')?.toLowerCase() === 'always');
}

const refIn =
  (section: SpecSection | undefined) =>
  (row: SpecRow): SpecInvariantRef => ({
    id: row.id,
    rule: (section && cellOf(section, row, 'rule')) ?? row.cells[1] ?? '',
  });

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
    alwaysInvariants: alwaysInvariants(doc).map(refIn(findSection(doc, 'V'))),
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
  const tasks = findSection(doc, 'T');
  const cell = (name: string, index: number) => (tasks && cellOf(tasks, task, name)) ?? task.cells[index] ?? '';
  const [status, title, cites] = [cell('status', 0), cell('task', 1), cell('cites', 2)];
  const ref = refIn(findSection(doc, 'V'));
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

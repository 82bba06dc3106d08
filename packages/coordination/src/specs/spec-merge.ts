/**
 * @module specs/spec-merge
 * The three-way merge of an archive: base (SPEC.md when the change opened), root
 * (SPEC.md now) and proposed (base with the change's deltas applied), line by line with
 * node-diff3. Identical edits on both sides are not conflicts. A hunk diff3 marks as a
 * conflict is looked at once more when every line in it is a table row: rows are keyed
 * by id, so edits of different rows that merely touch (a row modified beside a row
 * appended) merge row by row; only a row both sides changed differently conflicts.
 */

import { diff3 } from '../_lazy-deps';
import { rowIdOfLine } from './spec-format';

/** One conflicting hunk: the base lines and what the change and the current root made of them. */
export interface SpecConflict {
  /** 1-based line in the base where the hunk starts. */
  readonly line: number;
  /** Row ids appearing in the hunk, e.g. ['V.3']. */
  readonly ids: string[];
  readonly base: string[];
  readonly change: string[];
  readonly root: string[];
}

export interface MergeOutcome {
  /** The merged text; conflicting hunks take the change's side. */
  readonly text: string;
  readonly conflicts: SpecConflict[];
}

export function mergeSpec(base: string, root: string, proposed: string): MergeOutcome {
  const regions = diff3().diff3Merge<string>(proposed.split('\n'), base.split('\n'), root.split('\n'), {
    excludeFalseConflicts: true,
  });
  const out: string[] = [];
  const conflicts: SpecConflict[] = [];
  for (const region of regions) {
    if (region.ok) out.push(...region.ok);
    else if (region.conflict) {
      const { a, o, b, oIndex } = region.conflict;
      const rows = mergeRows(o, a, b);
      if (rows) {
        out.push(...rows);
        continue;
      }
      out.push(...a);
      conflicts.push({ line: oIndex + 1, ids: idsIn([...o, ...a, ...b]), base: o, change: a, root: b });
    }
  }
  return { text: out.join('\n'), conflicts };
}

/** Lines keyed by row id; null unless every line is a row with a distinct id. */
function rowsById(lines: readonly string[]): Map<string, string> | null {
  const rows = new Map<string, string>();
  for (const line of lines) {
    const id = rowIdOfLine(line);
    if (!id || rows.has(id)) return null;
    rows.set(id, line);
  }
  return rows;
}

/**
 * A three-way merge of table rows by id: a side that left a row as in the base yields
 * to the other; both sides changing one row differently is a conflict (null). Root
 * order first, then rows only the change has.
 */
function mergeRows(o: readonly string[], a: readonly string[], b: readonly string[]): string[] | null {
  const base = rowsById(o);
  const change = rowsById(a);
  const root = rowsById(b);
  if (!base || !change || !root) return null;
  const merged = new Map<string, string | undefined>();
  for (const id of new Set([...root.keys(), ...change.keys(), ...base.keys()])) {
    const [x, y, z] = [base.get(id), change.get(id), root.get(id)];
    if (y === z || y === x) merged.set(id, z);
    else if (z === x) merged.set(id, y);
    else return null;
  }
  const order = [...new Set([...root.keys(), ...change.keys()])];
  return order.map((id) => merged.get(id)).filter((line): line is string => line !== undefined);
}

function idsIn(lines: readonly string[]): string[] {
  const ids = new Set<string>();
  for (const line of lines) {
    const id = rowIdOfLine(line);
    if (id) ids.add(id);
  }
  return [...ids];
}

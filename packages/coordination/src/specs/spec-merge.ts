/**
 * @module specs/spec-merge
 * The three-way merge of an archive: base (SPEC.md when the change opened), root
 * (SPEC.md now) and proposed (base with the change's deltas applied), line by line with
 * node-diff3. Identical edits on both sides are not conflicts.
 */
import { diff3Merge } from 'node-diff3';
import { normalizeRowId, splitRow } from './spec-format';

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
  const regions = diff3Merge<string>(proposed.split('\n'), base.split('\n'), root.split('\n'), {
    excludeFalseConflicts: true,
  });
  const out: string[] = [];
  const conflicts: SpecConflict[] = [];
  for (const region of regions) {
    if (region.ok) out.push(...region.ok);
    else if (region.conflict) {
      const { a, o, b, oIndex } = region.conflict;
      out.push(...a);
      conflicts.push({ line: oIndex + 1, ids: idsIn([...o, ...a, ...b]), base: o, change: a, root: b });
    }
  }
  return { text: out.join('\n'), conflicts };
}

function idsIn(lines: readonly string[]): string[] {
  const ids = new Set<string>();
  for (const line of lines) {
    if (!line.trimStart().startsWith('|')) continue;
    const id = normalizeRowId(splitRow(line)[0] ?? '');
    if (id) ids.add(id);
  }
  return [...ids];
}

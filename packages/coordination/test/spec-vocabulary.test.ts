/**
 * SPEC.md in the §-vocabulary of existing repositories: compact tables read by column
 * name, `V1.always` as an always-on invariant, deltas written in the table's own style,
 * and a three-way merge of compact rows keyed by id.
 */
import { describe, expect, it } from 'vitest';
import { readSpec, taskContext } from '../src/specs/spec-context';
import { applyDeltas, checkDelta } from '../src/specs/spec-deltas';
import { findRow, parseSpec } from '../src/specs/spec-format';
import { mergeSpec } from '../src/specs/spec-merge';

const SPEC = `# W

## §V invariants

id|rule|cites
-|-|-
V1.always|no network|-
V2|ids|T1

## §T tasks

id|status|task|cites
-|-|-|-
T1|todo|cache|V2

## §B bugs

id|bug|cites
-|-|-
B1|stale cache|V2
`;

describe('the §-vocabulary of existing repositories', () => {
  it('reads compact rows, ids without the dot and the header columns', () => {
    const doc = parseSpec(SPEC);
    expect(doc.sections.map((s) => [s.key, s.rows?.map((r) => r.id), s.compact])).toEqual([
      ['V', ['V.1', 'V.2'], true],
      ['T', ['T.1'], true],
      ['B', ['B.1'], true],
    ]);
    expect(findRow(doc, 'V.1')).toMatchObject({ always: true, cells: ['no network', '-'] });
    expect(doc.sections[2]?.columns).toEqual(['id', 'bug', 'cites']);
  });

  it('lists V1.always as always-on and builds a present T1', () => {
    expect(readSpec(SPEC).alwaysInvariants).toEqual([{ id: 'V.1', rule: 'no network' }]);
    expect(taskContext(SPEC, 'T1')).toMatchObject({
      task_id: 'T.1',
      cited_ids: ['V.2'],
      always_invariants: [{ id: 'V.1', rule: 'no network' }],
    });
  });

  it('writes deltas named V.3 / T.1 in the table style, canonical cells accepted', () => {
    const text = applyDeltas(SPEC, [
      checkDelta('add', 'V.3', ['always', 'hermetic']),
      checkDelta('add', 'V.4', ['must', 'a|b']),
      checkDelta('modify', 'T.1', ['done', 'cache', 'V2']),
      checkDelta('add', 'B.2', ['abc', 't:1', '1', 'boom']),
    ]);
    expect(text).toContain('V2|ids|T1\nV3.always|hermetic|\nV4|a\\|b|\n');
    expect(text).toContain('T1|done|cache|V2\n');
    expect(text).toContain('B1|stale cache|V2\nB2|boom|\n');
  });

  it('merges compact rows by id three-way', () => {
    const proposed = applyDeltas(SPEC, [checkDelta('modify', 'V.2', ['must', 'uuids'])]);
    const root = SPEC.replace('V1.always|no network|-', 'V1.always|no network at all|-');
    const merged = mergeSpec(SPEC, root, proposed);
    expect(merged.conflicts).toEqual([]);
    expect(merged.text).toContain('V1.always|no network at all|-\nV2|uuids|T1\n');
  });
});

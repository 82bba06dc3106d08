/**
 * SPEC.md and CHANGE.md formats: parsing, ids, line-local deltas, the three-way merge,
 * and parse -> write -> parse round trips as properties.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseChange, writeChange } from '../src/specs/change-format';
import { applyDeltas, checkDelta, DeltaError } from '../src/specs/spec-deltas';
import { findRow, normalizeRowId, parseSpec, type SpecModel, toSpecModel, writeSpec } from '../src/specs/spec-format';
import { mergeSpec } from '../src/specs/spec-merge';

const SPEC = `# Widgets

## §G Goal

Serve widgets.

## §V Invariants

| id | level | rule |
| --- | --- | --- |
| V.1 | must | widgets have ids |
| V2 | always | no \\| pipes lost |

## §T Tasks

| id | status | task | cites |
|----|--------|------|-------|
| T5 | todo | build the API | V.1, V.2 |
`;

describe('SPEC.md parsing', () => {
  it('reads the title, § sections, table rows and normalised ids', () => {
    const doc = parseSpec(SPEC);
    expect(doc.title).toBe('Widgets');
    expect(doc.sections.map((s) => s.key)).toEqual(['G', 'V', 'T']);
    expect(doc.sections[0]?.rows).toBeNull();
    expect(doc.sections[0]?.prose).toBe('Serve widgets.');
    expect(findRow(doc, 'V.2')?.cells).toEqual(['always', 'no | pipes lost']);
    expect(findRow(doc, 'T.5')?.cells).toEqual(['todo', 'build the API', 'V.1, V.2']);
    expect(findRow(doc, 't5')?.id).toBe('T.5');
  });

  it('keeps a heading without a § letter as an unnamed section and still parses the rest', () => {
    const doc = parseSpec(SPEC.replace('## §V', '## Notes\n\nfree text\n\n## §V'));
    expect(doc.sections.map((s) => s.key)).toEqual(['G', '', 'V', 'T']);
    expect(doc.sections[1]?.body).toBe('\nfree text\n');
    expect(findRow(doc, 'V.1')).toBeDefined();
  });

  it('normalises row ids and rejects what is not one', () => {
    expect(normalizeRowId('T5')).toBe('T.5');
    expect(normalizeRowId('v.03')).toBe('V.3');
    expect(normalizeRowId('T.12')).toBe('T.12');
    expect(normalizeRowId('TT5')).toBeNull();
    expect(normalizeRowId('id')).toBeNull();
  });
});

describe('deltas', () => {
  it('edit exactly one line each and leave every other byte alone', () => {
    const out = applyDeltas(SPEC, [
      checkDelta('modify', 'V1', ['must', 'widgets have numeric ids']),
      checkDelta('add', 'T.6', ['todo', 'cache pages', 'V.2']),
      checkDelta('remove', 'V.2', []),
    ]);
    const before = SPEC.split('\n');
    const after = out.split('\n');
    expect(after).toContain('| V.1 | must | widgets have numeric ids |');
    expect(after).toContain('| T.6 | todo | cache pages | V.2 |');
    expect(after.some((l) => l.startsWith('| V2'))).toBe(false);
    expect(after.filter((l) => !before.includes(l))).toHaveLength(2);
    expect(after.indexOf('| T.6 | todo | cache pages | V.2 |')).toBe(
      after.indexOf('| T5 | todo | build the API | V.1, V.2 |') + 1,
    );
  });

  it('create a missing section in canonical order, and a spec from nothing', () => {
    const withB = applyDeltas(SPEC, [checkDelta('add', 'B.1', ['abc', 't.ts:1', '1', 'boom'])]);
    expect(parseSpec(withB).sections.map((s) => s.key)).toEqual(['G', 'V', 'T', 'B']);
    const withC = applyDeltas(SPEC.replace(/## §G[\s\S]*?(?=## §V)/, ''), [
      checkDelta('add', 'T.1', ['todo', 'x', '']),
    ]);
    expect(findRow(parseSpec(withC), 'T.1')).toBeDefined();
    const fresh = applyDeltas('', [checkDelta('add', 'V.1', ['always', 'tests pass'])]);
    expect(fresh).toBe(
      '# Spec\n\n## §V Invariants\n\n| id | level | rule |\n| --- | --- | --- |\n| V.1 | always | tests pass |\n',
    );
  });

  it('refuse a bad target, a wrong cell count, a bad level, an existing add and a missing modify', () => {
    const problem = (fn: () => unknown) => {
      try {
        fn();
      } catch (error) {
        return (error as DeltaError).problem;
      }
      return 'none';
    };
    expect(problem(() => checkDelta('add', 'G.1', ['x']))).toBe('target');
    expect(problem(() => checkDelta('add', 'T.1', ['todo']))).toBe('cells');
    expect(problem(() => checkDelta('add', 'V.9', ['maybe', 'x']))).toBe('cells');
    expect(problem(() => applyDeltas(SPEC, [checkDelta('add', 'V.1', ['must', 'x'])]))).toBe('exists');
    expect(problem(() => applyDeltas(SPEC, [checkDelta('modify', 'V.7', ['must', 'x'])]))).toBe('missing');
    expect(problem(() => applyDeltas(SPEC, [checkDelta('remove', 'T.9', [])]))).toBe('missing');
    expect(new DeltaError('exists', 'V.1', 'x')).toBeInstanceOf(Error);
  });
});

describe('three-way merge', () => {
  const change = applyDeltas(SPEC, [checkDelta('modify', 'V.1', ['must', 'ids are uuids'])]);

  it('merges edits of different lines', () => {
    const root = SPEC.replace('Serve widgets.', 'Serve widgets fast.');
    const merged = mergeSpec(SPEC, root, change);
    expect(merged.conflicts).toEqual([]);
    expect(merged.text).toContain('Serve widgets fast.');
    expect(merged.text).toContain('| V.1 | must | ids are uuids |');
  });

  it('reports a conflict on the same row with its id, and treats identical edits as none', () => {
    const root = SPEC.replace('| V.1 | must | widgets have ids |', '| V.1 | should | widgets have ids |');
    const merged = mergeSpec(SPEC, root, change);
    expect(merged.conflicts).toHaveLength(1);
    expect(merged.conflicts[0]).toMatchObject({
      ids: ['V.1'],
      base: ['| V.1 | must | widgets have ids |'],
      change: ['| V.1 | must | ids are uuids |'],
      root: ['| V.1 | should | widgets have ids |'],
    });
    expect(mergeSpec(SPEC, change, change).conflicts).toEqual([]);
  });

  it('merges touching edits of different rows row by row', () => {
    const root = applyDeltas(SPEC, [checkDelta('add', 'V.3', ['should', 'pages are cached'])]);
    const merged = mergeSpec(SPEC, root, applyDeltas(SPEC, [checkDelta('modify', 'V.2', ['must', 'no network'])]));
    expect(merged.conflicts).toEqual([]);
    expect(merged.text.split('\n').filter((l) => l.startsWith('| V'))).toEqual([
      '| V.1 | must | widgets have ids |',
      '| V.2 | must | no network |',
      '| V.3 | should | pages are cached |',
    ]);
    const both = mergeSpec(SPEC, root, applyDeltas(SPEC, [checkDelta('add', 'V.4', ['must', 'four'])]));
    expect(both.conflicts).toEqual([]);
    expect(both.text).toContain('| V.3 | should | pages are cached |\n| V.4 | must | four |');
  });

  it('conflicts when both sides add the same id with different rows', () => {
    const root = applyDeltas(SPEC, [checkDelta('add', 'V.3', ['should', 'pages are cached'])]);
    const merged = mergeSpec(SPEC, root, applyDeltas(SPEC, [checkDelta('add', 'V.3', ['must', 'logs rotate'])]));
    expect(merged.conflicts.map((c) => c.ids)).toEqual([['V.3']]);
  });
});

const word = fc.stringMatching(/^[a-z0-9]{1,8}$/);
const prose = fc
  .array(
    fc.array(word, { minLength: 1, maxLength: 6 }).map((w) => w.join(' ')),
    { maxLength: 3 },
  )
  .map((lines) => lines.join('\n'));
const cell = fc.string({ maxLength: 20 }).map((s) =>
  [...s]
    .filter((c) => c >= ' ' && c !== '\u007f')
    .join('')
    .trim(),
);
const section = (key: 'G' | 'C' | 'I' | 'V' | 'T' | 'B') =>
  fc.record({
    key: fc.constant(key),
    prose,
    rows:
      key === 'G' || key === 'C' || key === 'I'
        ? fc.constant([])
        : fc
            .array(fc.array(cell, { minLength: 1, maxLength: 4 }), { maxLength: 5 })
            .map((rows) => rows.map((cells, i) => ({ id: `${key}.${i + 1}`, cells }))),
  });
const model: fc.Arbitrary<SpecModel> = fc.record({
  title: fc.array(word, { minLength: 1, maxLength: 4 }).map((w) => w.join(' ')),
  sections: fc.subarray(['G', 'C', 'I', 'V', 'T', 'B'] as const).chain((keys) => fc.tuple(...keys.map(section))),
});

describe('round trips', () => {
  it('SPEC.md: data -> write -> parse gives the data back, and writing again gives the same bytes', () => {
    fc.assert(
      fc.property(model, (m) => {
        const text = writeSpec(m);
        const back = toSpecModel(parseSpec(text));
        expect(back).toEqual(m);
        expect(writeSpec(back)).toBe(text);
      }),
      { numRuns: 300 },
    );
  });

  it('CHANGE.md: any deltas and proposal survive write -> parse', () => {
    const delta = fc.record({
      op: fc.constantFrom('add' as const, 'modify' as const, 'remove' as const),
      target: fc.tuple(fc.constantFrom('V', 'T', 'B'), fc.nat(99)).map(([k, n]) => `${k}.${n + 1}`),
      cells: fc.array(fc.string({ maxLength: 30 }), { maxLength: 4 }),
    });
    fc.assert(
      fc.property(fc.array(delta, { maxLength: 6 }), prose, (deltas, proposal) => {
        const change = {
          slug: 'a-change',
          baseRootHash: 'f'.repeat(64),
          taskId: 7,
          openedBy: 'claude (sess_a)',
          openedAt: '2026-01-01T00:00:00.000Z',
          proposal,
          deltas,
        };
        expect(parseChange(writeChange(change))).toEqual(change);
      }),
      { numRuns: 300 },
    );
  });
});

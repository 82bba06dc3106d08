/**
 * @module specs/change-format
 * CHANGE.md, one in-flight spec change (openspec/changes/<slug>/CHANGE.md):
 *
 *   # Change: <slug>
 *
 *   - base_root_hash: <sha256 of SPEC.md when the change opened>
 *   - task_id: <the spec/<slug> task thread>
 *   - opened_by: <agent> (<session_id>)
 *   - opened_at: <ISO time>
 *
 *   ## Proposal
 *
 *   <free text>
 *
 *   ## Deltas
 *
 *   | op | target | cells |
 *   | --- | --- | --- |
 *   | modify | V.3 | ["must","embedding.batchSize passes through"] |
 *
 * `cells` is a JSON array of strings, so any cell text survives the table.
 */
import { DELTA_OPS, type DeltaOp, type SpecDelta } from './spec-deltas';
import { normalizeRowId, renderRow, splitRow } from './spec-format';

export interface ChangeDocument {
  readonly slug: string;
  readonly baseRootHash: string;
  readonly taskId: number | null;
  readonly openedBy: string;
  readonly openedAt: string;
  readonly proposal: string;
  readonly deltas: SpecDelta[];
}

export const CHANGE_DELTA_COLUMNS = ['op', 'target', 'cells'] as const;

export function writeChange(change: ChangeDocument): string {
  const out = [
    `# Change: ${change.slug}`,
    '',
    `- base_root_hash: ${change.baseRootHash}`,
    `- task_id: ${change.taskId ?? ''}`,
    `- opened_by: ${change.openedBy}`,
    `- opened_at: ${change.openedAt}`,
    '',
    '## Proposal',
    '',
    change.proposal.trim(),
    '',
    '## Deltas',
    '',
    renderRow(CHANGE_DELTA_COLUMNS),
    renderRow(CHANGE_DELTA_COLUMNS.map(() => '---')),
    ...change.deltas.map(deltaLine),
  ];
  return `${out.join('\n')}\n`;
}

export function deltaLine(delta: SpecDelta): string {
  return renderRow([delta.op, delta.target, JSON.stringify(delta.cells)]);
}

/** Parses CHANGE.md; null when the text is not a change document. */
export function parseChange(text: string): ChangeDocument | null {
  const lines = text.split('\n').map((l) => l.replace(/\r$/, ''));
  const slug = /^# Change: (.+)$/.exec(lines[0] ?? '')?.[1]?.trim();
  if (!slug) return null;
  const proposalAt = lines.indexOf('## Proposal');
  const deltasAt = lines.lastIndexOf('## Deltas');
  const headEnd = proposalAt >= 0 ? proposalAt : deltasAt >= 0 ? deltasAt : lines.length;
  const fields = new Map<string, string>();
  for (const line of lines.slice(1, headEnd)) {
    const m = /^- ([a-z_]+):\s?(.*)$/.exec(line);
    if (m?.[1]) fields.set(m[1], (m[2] ?? '').trim());
  }
  const proposal =
    proposalAt >= 0
      ? lines
          .slice(proposalAt + 1, deltasAt > proposalAt ? deltasAt : lines.length)
          .join('\n')
          .trim()
      : '';
  const deltas: SpecDelta[] = [];
  if (deltasAt >= 0) {
    for (const line of lines.slice(deltasAt + 1)) {
      if (!line.startsWith('|')) continue;
      const [op = '', target = '', cells = ''] = splitRow(line);
      const id = normalizeRowId(target);
      if (!(DELTA_OPS as readonly string[]).includes(op) || !id) continue;
      deltas.push({ op: op as DeltaOp, target: id, cells: parseCells(cells) });
    }
  }
  const taskId = Number(fields.get('task_id'));
  return {
    slug,
    baseRootHash: fields.get('base_root_hash') ?? '',
    taskId: Number.isInteger(taskId) && taskId > 0 ? taskId : null,
    openedBy: fields.get('opened_by') ?? '',
    openedAt: fields.get('opened_at') ?? '',
    proposal,
    deltas,
  };
}

function parseCells(text: string): string[] {
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? value.map(String) : [];
  } catch {
    return [];
  }
}

/**
 * @module tools/specs
 * OpenSpec tools: read the root SPEC.md, open a change and add deltas, resolve the
 * context a §T task must respect, record build failures, archive a change with a
 * three-way merge, and report drift between task threads and spec files.
 * The SPEC.md format is defined in openspec/specs/spec-format/spec.md.
 */
import { z } from 'zod';
import { defineTool } from '../define-tool';
import type { BudgetInfo } from '../schemas';
import { agentName, content, limit, repoRoot, sessionId } from '../schemas';

/** A change slug: kebab-case. */
export const specSlug = z
  .string()
  .max(100)
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'must be kebab-case');
/** A root spec row id like V.3 or T12. */
export const specRowId = z
  .string()
  .max(20)
  .regex(/^[A-Za-z]\.?\d+$/, 'must be a row id like V.3 or T12');

const change = { repo_root: repoRoot, slug: specSlug, session_id: sessionId };

export const SpecReadInput = z.strictObject({ repo_root: repoRoot });
export type SpecReadInput = z.output<typeof SpecReadInput>;

export interface SpecChangeOpenResult {
  task_id: number;
  /** Absolute path of the change's CHANGE.md. */
  path: string;
  base_root_hash: string;
}

/** One conflicting hunk of an archive's three-way merge. */
export interface SpecConflictEntry {
  /** 1-based line of the base where the hunk starts. */
  line: number;
  /** Row ids in the hunk, e.g. ['V.3']. */
  ids: string[];
  base: string[];
  change: string[];
  root: string[];
}

/** archived: written; conflict: three_way found conflicts, nothing written; refused: refuse_on_conflict did. */
export type SpecArchiveStatus = 'archived' | 'conflict' | 'refused';

export interface SpecArchiveResult {
  status: SpecArchiveStatus;
  archived_path: string | null;
  merged_root_hash: string | null;
  conflicts: SpecConflictEntry[];
  /** Deltas applied (0 unless archived). */
  applied: number;
}

export interface SpecSectionSummary {
  /** The § letter (G, C, I, V, T, B) or '' for another heading. */
  id: string;
  heading: string;
  body: string;
  row_count?: number;
}

export interface SpecInvariantRef {
  id: string;
  rule: string;
}

export interface SpecReadResult {
  rootHash: string;
  title: string;
  sections: SpecSectionSummary[];
  alwaysInvariants: SpecInvariantRef[];
}

export interface SpecContextResult {
  task_id: string;
  cited_ids: string[];
  always_invariants: SpecInvariantRef[];
  rendered: string;
}

export interface RecordFailureResult {
  action: 'logged' | 'promoted' | 'duplicate';
  signature_hash: string;
  match_count: number;
  proposal_id: number | null;
}

export type SyncDriftKind =
  | 'change_without_task'
  | 'task_without_change'
  | 'stale_change'
  | 'base_moved'
  | 'broken_change'
  | 'archive_unrecorded'
  | 'stale_checkbox';

export interface SyncDriftRow {
  kind: SyncDriftKind;
  slug: string;
  detail: string;
  repair: { tool: string; args: Record<string, unknown> } | null;
}

export interface SyncStatusResult {
  repo_root: string;
  root_hash: string | null;
  open_changes: number;
  archived_changes: number;
  drift: SyncDriftRow[];
  total: number;
  truncated: boolean;
  budget: BudgetInfo;
}

export interface SpecBackend {
  read(args: SpecReadInput): SpecReadResult;
  syncStatus(args: OpenspecSyncStatusInput): Promise<SyncStatusResult>;
  changeOpen(args: SpecChangeOpenInput): Promise<SpecChangeOpenResult>;
  changeAddDelta(args: SpecChangeAddDeltaInput): Promise<{ delta_count: number }>;
  buildContext(args: SpecBuildContextInput): SpecContextResult;
  buildRecordFailure(args: SpecBuildRecordFailureInput): Promise<RecordFailureResult>;
  /** Throws SPEC_ARCHIVE_CONFLICT (details: status 'refused', conflicts) when refuse_on_conflict meets conflicts. */
  archiveChange(args: SpecArchiveInput): Promise<SpecArchiveResult>;
}

/** The part of ColonyBackend these tools call (backend.ts composes the whole). */
type Host = { readonly specs: SpecBackend };

export const specRead = defineTool({
  name: 'spec_read',
  title: 'Read spec',
  description: "A repo's SPEC.md: sections, hash, invariants.",
  input: SpecReadInput,
  mutates: false,
  docs: {
    returns: '{ rootHash, title, sections: [ { id, heading, body, row_count? } ], alwaysInvariants: [ { id, rule } ] }',
    errors: ['SPEC_NOT_FOUND', 'PATH_OUTSIDE_REPO', 'ROOT_NOT_ALLOWED'],
    notes:
      'rootHash is the sha256 of SPEC.md bytes: a change opened now pins it as its base. Bodies are ' +
      'raw; row_count is given for §V, §T and §B.',
    example: { repo_root: '/abs/repo' },
  },
  handler: (args, b: Host) => b.specs.read(args),
});

export const OpenspecSyncStatusInput = z.strictObject({
  repo_root: repoRoot,
  stale_after_hours: z.number().positive().max(8760).default(24),
  limit: limit(50, 200),
});
export type OpenspecSyncStatusInput = z.output<typeof OpenspecSyncStatusInput>;

export const openspecSyncStatus = defineTool({
  name: 'openspec_sync_status',
  title: 'Spec sync status',
  description: 'Drift between spec threads and openspec/.',
  input: OpenspecSyncStatusInput,
  mutates: false,
  docs: {
    returns:
      '{ repo_root, root_hash, open_changes, archived_changes, drift: [ { kind, slug, detail, repair: ' +
      '{ tool, args } | null } ], total, truncated, budget }',
    notes:
      'kinds: change_without_task (open change, no spec/<slug> thread), task_without_change (thread on ' +
      'spec/<slug>, no change or archive), stale_change (no thread activity for stale_after_hours), ' +
      'base_moved (SPEC.md changed since the change opened: archive soon), broken_change (folder ' +
      'without a readable CHANGE.md), archive_unrecorded (archived folder, no spec-archive ' +
      'observation), stale_checkbox (archived CHANGE.md with unchecked `- [ ]` items). budget counts ' +
      'every drift row (total) against those listed.',
    example: { repo_root: '/abs/repo', stale_after_hours: 24, limit: 50 },
  },
  handler: (args, b: Host) => b.specs.syncStatus(args),
});

export const SpecChangeOpenInput = z.strictObject({ ...change, agent: agentName, proposal: content });
export type SpecChangeOpenInput = z.output<typeof SpecChangeOpenInput>;

export const specChangeOpen = defineTool({
  name: 'spec_change_open',
  title: 'Open spec change',
  description: 'Open a spec change and join its thread.',
  input: SpecChangeOpenInput,
  mutates: true,
  hints: { destructive: false, idempotent: false },
  docs: {
    returns: '{ task_id, path, base_root_hash }',
    errors: ['SPEC_CHANGE_EXISTS', 'PATH_OUTSIDE_REPO', 'ROOT_NOT_ALLOWED'],
    notes:
      'Copies SPEC.md as base.SPEC.md beside CHANGE.md (a repo without SPEC.md has an empty base) and ' +
      'appends a `spec-change-open` observation. path is absolute. Files are written only inside ' +
      'repo_root.',
    example: {
      repo_root: '/abs/repo',
      slug: 'add-embedding-batch-size',
      session_id: 'sess_abc',
      agent: 'claude',
      proposal: 'Wire the batchSize setting into createEmbedder.',
    },
  },
  handler: (args, b: Host) => b.specs.changeOpen(args),
});

export const SpecChangeAddDeltaInput = z.strictObject({
  ...change,
  op: z.enum(['add', 'modify', 'remove']),
  target: specRowId,
  row_cells: z.array(z.string().max(2000)).max(8).default([]),
});
export type SpecChangeAddDeltaInput = z.output<typeof SpecChangeAddDeltaInput>;

export const specChangeAddDelta = defineTool({
  name: 'spec_change_add_delta',
  title: 'Add spec delta',
  description: 'Add, modify or remove a spec row in an open change.',
  input: SpecChangeAddDeltaInput,
  mutates: true,
  hints: { destructive: false, idempotent: false },
  docs: {
    returns: '{ delta_count } (the running total)',
    errors: [
      'SPEC_CHANGE_NOT_FOUND',
      'SPEC_ROW_EXISTS',
      'SPEC_ROW_NOT_FOUND',
      'NOT_PARTICIPANT',
      'PATH_OUTSIDE_REPO',
      'ROOT_NOT_ALLOWED',
    ],
    notes:
      'row_cells are the cells after the id: §V [level, rule] (level must|should|always), §T [status, task, cites], ' +
      '§B [signature, test_id, count, summary]; none for remove. Targets V.3 and V3 name one row; in a SPEC.md whose ' +
      'tables are written without outer pipes (`V1|rule|cites`), the row is written in that style (level always as ' +
      'the `.always` id suffix). Deltas apply in order to the base: add of an existing row is SPEC_ROW_EXISTS, ' +
      'modify/remove of a missing one SPEC_ROW_NOT_FOUND. The session must have joined spec/<slug>.',
    example: {
      repo_root: '/abs/repo',
      slug: 'add-embedding-batch-size',
      session_id: 'sess_abc',
      op: 'modify',
      target: 'V.3',
      row_cells: ['must', 'embedding.batchSize passes through to createEmbedder'],
    },
  },
  handler: (args, b: Host) => b.specs.changeAddDelta(args),
});

export const SpecBuildContextInput = z.strictObject({ repo_root: repoRoot, task_id: specRowId });
export type SpecBuildContextInput = z.output<typeof SpecBuildContextInput>;

export const specBuildContext = defineTool({
  name: 'spec_build_context',
  title: 'Spec build context',
  description: 'The invariants a spec task row cites.',
  input: SpecBuildContextInput,
  mutates: false,
  docs: {
    returns: '{ task_id, cited_ids, always_invariants: [ { id, rule } ], rendered }',
    errors: ['SPEC_NOT_FOUND', 'SPEC_TASK_NOT_FOUND', 'PATH_OUTSIDE_REPO', 'ROOT_NOT_ALLOWED'],
    notes:
      "task_id is a §T row id (T5 and T.5 are the same). cited_ids come from the row's cites cell; " +
      'rendered is markdown with the task row, the cited rows and the always rows. A missing row ' +
      'answers SPEC_TASK_NOT_FOUND with error "no task T.5".',
    example: { repo_root: '/abs/repo', task_id: 'T5' },
  },
  handler: (args, b: Host) => b.specs.buildContext(args),
});

export const SpecBuildRecordFailureInput = z.strictObject({
  ...change,
  agent: agentName,
  test_id: z.string().min(1).max(500),
  error: z.string().min(1).max(8000),
  stack: z.string().max(65_536).default(''),
  error_summary: z.string().min(1).max(300).optional(),
  promote_after: z.int().min(1).max(100).default(3),
});
export type SpecBuildRecordFailureInput = z.output<typeof SpecBuildRecordFailureInput>;

export const specBuildRecordFailure = defineTool({
  name: 'spec_build_record_failure',
  title: 'Record build failure',
  description: 'Record a build test failure.',
  input: SpecBuildRecordFailureInput,
  mutates: true,
  hints: { destructive: false, idempotent: false },
  docs: {
    returns: "{ action: 'logged' | 'promoted' | 'duplicate', signature_hash, match_count, proposal_id }",
    errors: ['SPEC_CHANGE_NOT_FOUND', 'PATH_OUTSIDE_REPO', 'ROOT_NOT_ALLOWED'],
    notes:
      'signature_hash is the sha256 of test_id and the error with digits, hex and paths masked, so ' +
      "reruns match. Each report counts (match_count, per repo) and adds or updates the change's §B " +
      'delta row. When match_count reaches promote_after the failure is proposed (task_propose on ' +
      'spec/<slug>) as a §V invariant: action promoted; later reports are duplicate with the same ' +
      'proposal_id. Joins the caller to spec/<slug>.',
    example: {
      repo_root: '/abs/repo',
      slug: 'add-embedding-batch-size',
      session_id: 'sess_abc',
      agent: 'claude',
      test_id: 'packages/embedding/test/batch.test.ts:14',
      error: 'Expected 16 but got 1',
      stack: '',
      error_summary: 'batchSize ignored when provider=local',
      promote_after: 3,
    },
  },
  handler: (args, b: Host) => b.specs.buildRecordFailure(args),
});

export const SpecArchiveInput = z.strictObject({
  ...change,
  agent: agentName,
  strategy: z.enum(['three_way', 'refuse_on_conflict', 'last_writer_wins']).default('three_way'),
});
export type SpecArchiveInput = z.output<typeof SpecArchiveInput>;

export const specArchive = defineTool({
  name: 'spec_archive',
  title: 'Archive spec change',
  description: 'Merge a spec change into SPEC.md.',
  input: SpecArchiveInput,
  mutates: true,
  hints: { destructive: true, idempotent: false },
  docs: {
    returns:
      "{ status: 'archived' | 'conflict', archived_path, merged_root_hash, conflicts: [ { line, ids, " +
      'base, change, root } ], applied }',
    errors: [
      'SPEC_ARCHIVE_CONFLICT',
      'SPEC_CHANGE_NOT_FOUND',
      'SPEC_ROW_EXISTS',
      'SPEC_ROW_NOT_FOUND',
      'PATH_OUTSIDE_REPO',
      'ROOT_NOT_ALLOWED',
    ],
    notes:
      "The deltas apply to the change's base, then base, current SPEC.md and the result merge line by " +
      'line (node-diff3). The new SPEC.md and the move to openspec/archive/<YYYY-MM-DD>-<slug>/ land ' +
      "together or not at all. three_way: conflicts answer status 'conflict' and write nothing (the " +
      'change stays open). refuse_on_conflict: conflicts answer isError with code ' +
      "SPEC_ARCHIVE_CONFLICT, status: 'refused' and the conflict set. last_writer_wins: conflicting " +
      "hunks take the change's side; status 'archived' still lists them.",
    example: {
      repo_root: '/abs/repo',
      slug: 'add-embedding-batch-size',
      session_id: 'sess_abc',
      agent: 'claude',
      strategy: 'three_way',
    },
  },
  handler: (args, b: Host) => b.specs.archiveChange(args),
});

export const specTools = [
  specRead,
  openspecSyncStatus,
  specChangeOpen,
  specChangeAddDelta,
  specBuildContext,
  specBuildRecordFailure,
  specArchive,
];

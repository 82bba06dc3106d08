/**
 * @module backend-specs
 * Specs, proposals and suggestions: OpenSpec changes and archives, proposal strength
 * and foraging, task_suggest_approach. Part of the backend contract (see `backend`).
 */
import type { BudgetInfo } from './backend';
import type { TaskForagingReportInput, TaskProposeInput, TaskReinforceInput } from './tools/proposals';
import type {
  OpenspecSyncStatusInput,
  SpecArchiveInput,
  SpecBuildContextInput,
  SpecBuildRecordFailureInput,
  SpecChangeAddDeltaInput,
  SpecChangeOpenInput,
  SpecReadInput,
} from './tools/specs';
import type { TaskSuggestApproachInput } from './tools/suggest';

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

export interface ProposeResult {
  proposal_id: number;
  strength: number;
  promotion_threshold: number;
}

export interface ReinforceResult {
  proposal_id: number;
  strength: number;
  promoted: boolean;
  task_id: number | null;
}

export interface PendingProposal {
  id: number;
  strength: number;
  summary: string;
  /** Unique reinforcing sessions (the proposer included). */
  reinforcement_count: number;
  touches_files: string[];
  created_at: number;
  last_reinforced_at: number;
}

export interface PromotedProposal {
  id: number;
  task_id: number;
  /** The promoted task thread's branch. */
  branch: string;
  summary: string;
  promoted_at: number;
}

export interface ForagingReport {
  pending: PendingProposal[];
  promoted: PromotedProposal[];
  budget: BudgetInfo;
}

export interface ProposalBackend {
  propose(args: TaskProposeInput): ProposeResult;
  reinforce(args: TaskReinforceInput): ReinforceResult;
  foragingReport(args: TaskForagingReportInput): ForagingReport;
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
  syncStatus(args: OpenspecSyncStatusInput): SyncStatusResult;
  changeOpen(args: SpecChangeOpenInput): SpecChangeOpenResult;
  changeAddDelta(args: SpecChangeAddDeltaInput): { delta_count: number };
  buildContext(args: SpecBuildContextInput): SpecContextResult;
  buildRecordFailure(args: SpecBuildRecordFailureInput): RecordFailureResult;
  /** Throws SPEC_ARCHIVE_CONFLICT (details: status 'refused', conflicts) when refuse_on_conflict meets conflicts. */
  archiveChange(args: SpecArchiveInput): SpecArchiveResult;
}

export interface SimilarTask {
  task_id: number;
  similarity: number;
  branch: string;
  repo_root: string;
  /** `completed` (a completed plan sub-task or an archived plan), else the thread's status. */
  status: string;
  observation_count: number;
}

export interface LikelyFile {
  file_path: string;
  appears_in_count: number;
  confidence: number;
}

export interface PatternToWatch {
  description: string;
  seen_in_task_id: number;
  kind: string;
  observation_id: number;
}

export interface ResolutionHints {
  median_elapsed_minutes: number | null;
  median_handoff_count: number | null;
  median_subtask_count: number | null;
  completed_sample_size: number;
}

export interface SuggestApproachResult {
  similar_tasks: SimilarTask[];
  first_files_likely_claimed: LikelyFile[];
  patterns_to_watch: PatternToWatch[];
  resolution_hints: ResolutionHints;
  insufficient_data_reason: string | null;
  budget: BudgetInfo;
}

export interface SuggestBackend {
  suggestApproach(args: TaskSuggestApproachInput): SuggestApproachResult;
}

/**
 * @module tools/claims
 * File-claim tools: claim a file before editing so overlap is visible, and compare
 * recent edits with claims. Claims are warnings, never locks. The age thresholds below
 * are part of the contract: backends classify claims with them, docs quote them.
 */
import { z } from 'zod';
import { defineTool } from '../define-tool';
import type { BudgetInfo } from '../schemas';
import { filePath, sessionId, shortText, taskId } from '../schemas';

/** An active claim is `fresh` while refreshed (claimed again, or edited) within this many minutes. */
export const CLAIM_FRESH_MINUTES = 60;
/** An active claim not refreshed for this many minutes is `weak_expired` (between the two: `stale`). */
export const CLAIM_WEAK_AFTER_MINUTES = 240;
/** How a claim counts at read time: only fresh and handoff_pending claims are ownership. */
export const CLAIM_AGE_CLASSES = ['fresh', 'stale', 'weak_expired', 'handoff_pending'] as const;
export type ClaimAgeClass = (typeof CLAIM_AGE_CLASSES)[number];

export const TaskClaimFileInput = z.strictObject({
  task_id: taskId,
  session_id: sessionId,
  file_path: filePath,
  note: shortText.optional(),
});
export type TaskClaimFileInput = z.output<typeof TaskClaimFileInput>;

/** Another session's claim on the same repository file, as task_claim_file reports it. */
export interface ClaimOverlap {
  session_id: string;
  agent: string;
  task_id: number;
  claimed_at: number;
  age_class: ClaimAgeClass;
}

export interface ClaimFileResult {
  observation_id: number;
  /** Set when someone else holds a fresh or handoff_pending claim on the file. */
  warning?: string;
  overlaps?: ClaimOverlap[];
  /** Others' stale or weak claims on the file: history, not ownership. */
  weak_stale?: ClaimOverlap[];
}

export interface DriftCheckResult {
  generated_at: number;
  task_id: number;
  session_id: string;
  window_minutes: number;
  claimed_files: string[];
  edited_files: string[];
  edits_without_claim: string[];
  claims_without_edits: string[];
  drift_score: number;
  recommendation: string;
  next_tool: 'task_claim_file' | null;
  next_args: Array<{ session_id: string; task_id: number; file_path: string }> | null;
  budget: BudgetInfo;
}

export interface ClaimBackend {
  claimFile(args: TaskClaimFileInput): Promise<ClaimFileResult>;
  driftCheck(args: TaskDriftCheckInput): Promise<DriftCheckResult>;
}

/** The part of ColonyBackend these tools call (backend.ts composes the whole). */
type Host = { readonly claims: ClaimBackend };

export const taskClaimFile = defineTool({
  name: 'task_claim_file',
  title: 'Claim file',
  description: 'Claim a file before editing (a warning, not a lock).',
  input: TaskClaimFileInput,
  core: true,
  mutates: true,
  hints: { destructive: false, idempotent: true },
  docs: {
    returns:
      '{ observation_id } plus, when another session holds a fresh or handoff_pending claim on the ' +
      'same file of the repository (any branch), `warning` and `overlaps: [ { session_id, agent, ' +
      'task_id, claimed_at, age_class } ]`; stale or weak claims of others come as `weak_stale` (same ' +
      'shape, at most 5).',
    errors: ['TASK_NOT_FOUND', 'SESSION_NOT_FOUND', 'NOT_PARTICIPANT', 'PATH_OUTSIDE_REPO'],
    notes:
      `Claiming always succeeds for a participant of the task; it appends a \`claim\` observation. ` +
      `file_path may be absolute or relative to the task's repo_root and is stored repo-relative ` +
      `(PATH_OUTSIDE_REPO for a path leaving the repository). Claiming a file you already hold ` +
      `refreshes that claim (one live claim per task, file and session); it also takes a ` +
      `handoff_pending claim of yours back to active. An \`edit\` recorded by the same session on a ` +
      `claimed file refreshes the claim too. Age classes are computed when read: \`fresh\` while ` +
      `refreshed within ${CLAIM_FRESH_MINUTES} minutes, then \`stale\`, then \`weak_expired\` after ` +
      `${CLAIM_WEAK_AFTER_MINUTES} minutes; \`handoff_pending\` while waiting on a handoff or relay ` +
      `until its expiry (then \`weak_expired\`). Stale and weak claims stay in the audit history but ` +
      `are not active ownership and are never inherited by task_relay.`,
    example: {
      task_id: 17,
      session_id: 'sess_abc',
      file_path: 'packages/storage/src/storage.ts',
      note: 'extending searchFts with a filter arg',
    },
  },
  handler: (args, b: Host) => b.claims.claimFile(args),
});

export const TaskDriftCheckInput = z.strictObject({
  session_id: sessionId,
  task_id: taskId,
  window_minutes: z.int().min(1).max(1440).default(60),
});
export type TaskDriftCheckInput = z.output<typeof TaskDriftCheckInput>;

export const taskDriftCheck = defineTool({
  name: 'task_drift_check',
  title: 'Drift check',
  description: "Compare a session's claims with its recent edits.",
  input: TaskDriftCheckInput,
  mutates: false,
  docs: {
    returns:
      '{ generated_at, task_id, session_id, window_minutes, claimed_files, edited_files, ' +
      'edits_without_claim, claims_without_edits, drift_score, recommendation, next_tool, next_args, ' +
      'budget }',
    errors: ['TASK_NOT_FOUND', 'SESSION_NOT_FOUND'],
    notes:
      "File-scope drift only. Edits are the session's `edit` observations on the task within " +
      'window_minutes (default 60, max 1440); claims have no time bound: every claim of the session in ' +
      'state active counts. drift_score = edits_without_claim.length / max(1, edited_files.length). ' +
      'When edits lack a claim, next_tool is "task_claim_file" and next_args one payload per file; ' +
      'otherwise both are null. File lists are repo-relative and sorted. budget counts the files ' +
      'compared; nothing is left out.',
    example: { session_id: 'sess_abc', task_id: 42, window_minutes: 60 },
  },
  handler: (args, b: Host) => b.claims.driftCheck(args),
});

export const claimTools = [taskClaimFile, taskDriftCheck];

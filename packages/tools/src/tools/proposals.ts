/**
 * @module tools/proposals
 * Proposals: improvements scoped to (repo_root, branch) that become real task threads
 * only when collective reinforcement crosses the promotion threshold. The scoring
 * constants below are part of the contract: backends score with them, docs quote them.
 */
import { z } from 'zod';
import { defineTool } from '../define-tool';
import type { BudgetInfo } from '../schemas';
import { branchName, filePath, limit, repoRoot, sessionId } from '../schemas';

export const REINFORCE_KINDS = ['explicit', 'rediscovered', 'adjacent'] as const;
export type ReinforceKind = (typeof REINFORCE_KINDS)[number];
/** Base weight stored with each evidence row (the proposer's own row is `proposed`). */
export const PROPOSAL_WEIGHTS = { proposed: 1, explicit: 1, rediscovered: 1.5, adjacent: 0.3 } as const;
/** A further session of an agent type that already gave evidence counts this fraction. */
export const SAME_AGENT_TYPE_FACTOR = 0.5;
export const PROMOTION_THRESHOLD = 2;
/** Evidence halves in strength every this many hours. */
export const PROPOSAL_HALF_LIFE_HOURS = 7 * 24;
/** Pending proposals weaker than this are omitted from task_foraging_report. */
export const PROPOSAL_NOISE_FLOOR = 0.25;

export const TaskProposeInput = z.strictObject({
  repo_root: repoRoot,
  branch: branchName,
  summary: z.string().min(1).max(200),
  rationale: z.string().min(1).max(2000),
  touches_files: z.array(filePath).max(50).default([]),
  session_id: sessionId,
});
export type TaskProposeInput = z.output<typeof TaskProposeInput>;

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
  propose(args: TaskProposeInput): Promise<ProposeResult>;
  reinforce(args: TaskReinforceInput): Promise<ReinforceResult>;
  foragingReport(args: TaskForagingReportInput): Promise<ForagingReport>;
}

/** The part of ColonyBackend these tools call (backend.ts composes the whole). */
type Host = { readonly proposals: ProposalBackend };

export const taskPropose = defineTool({
  name: 'task_propose',
  title: 'Propose',
  description: 'Propose an improvement.',
  input: TaskProposeInput,
  mutates: true,
  hints: { destructive: false, idempotent: false },
  docs: {
    returns: '{ proposal_id, strength, promotion_threshold }',
    errors: ['PATH_OUTSIDE_REPO'],
    notes:
      `The proposer's own evidence weighs ${PROPOSAL_WEIGHTS.proposed}; the threshold is ` +
      `${PROMOTION_THRESHOLD}. Proposing what a pending proposal on the same repo_root+branch already ` +
      `says (same summary, case and spacing aside) reinforces it as \`rediscovered\` instead of adding ` +
      `a duplicate. touches_files are stored repo-relative (PATH_OUTSIDE_REPO for a path leaving the ` +
      `repository). Appends a \`proposal\` observation.`,
    example: {
      repo_root: '/abs/repo',
      branch: 'main',
      summary: 'Extract a shared ExamplesIndex helper',
      rationale: 'Three call sites reimplement the walk; diverging filter lists now.',
      touches_files: ['apps/cli/src/commands/foraging.ts'],
      session_id: 'sess_abc',
    },
  },
  handler: (args, b: Host) => b.proposals.propose(args),
});

export const TaskReinforceInput = z.strictObject({
  proposal_id: z.int().positive(),
  session_id: sessionId,
  kind: z.enum(REINFORCE_KINDS),
});
export type TaskReinforceInput = z.output<typeof TaskReinforceInput>;

export const taskReinforce = defineTool({
  name: 'task_reinforce',
  title: 'Reinforce proposal',
  description: 'Reinforce a proposal with evidence.',
  input: TaskReinforceInput,
  mutates: true,
  hints: { destructive: false, idempotent: false },
  docs: {
    returns: '{ proposal_id, strength, promoted, task_id } (task_id non-null once promoted)',
    errors: ['PROPOSAL_NOT_FOUND'],
    notes:
      `Weights: explicit ${PROPOSAL_WEIGHTS.explicit}, rediscovered ${PROPOSAL_WEIGHTS.rediscovered}, ` +
      `adjacent ${PROPOSAL_WEIGHTS.adjacent}, stored with the row. Scoring is deterministic and ` +
      `source-diverse: each session counts once, with its strongest evidence (repeats collapse); a ` +
      `further session of an agent type that already gave evidence counts ×${SAME_AGENT_TYPE_FACTOR}, ` +
      `a new agent type in full. The agent type comes from the session's agent, else its IDE, else the ` +
      `session id; an unknown type counts as already seen. Evidence halves every ` +
      `${PROPOSAL_HALF_LIFE_HOURS} hours. When strength reaches ${PROMOTION_THRESHOLD} the proposal is ` +
      `promoted in the same transaction: a task thread opens on branch \`proposal/<id>\` of repo_root ` +
      `(title = summary) and task_id is set; of concurrent reinforcements exactly one promotes.`,
    example: { proposal_id: 42, session_id: 'sess_xyz', kind: 'rediscovered' },
  },
  handler: (args, b: Host) => b.proposals.reinforce(args),
});

export const TaskForagingReportInput = z.strictObject({
  repo_root: repoRoot,
  branch: branchName,
  limit: limit(20, 100),
});
export type TaskForagingReportInput = z.output<typeof TaskForagingReportInput>;

export const taskForagingReport = defineTool({
  name: 'task_foraging_report',
  title: 'Foraging report',
  description: 'Pending and recently promoted proposals.',
  input: TaskForagingReportInput,
  mutates: false,
  docs: {
    returns:
      '{ pending: [ { id, strength, summary, reinforcement_count, touches_files, created_at, ' +
      'last_reinforced_at } ], promoted: [ { id, task_id, branch, summary, promoted_at } ], budget }',
    notes:
      `Pending proposals whose strength has evaporated below ${PROPOSAL_NOISE_FLOOR} are omitted. ` +
      `reinforcement_count counts unique sessions, not rows. promoted lists proposals promoted in the ` +
      `last ${PROPOSAL_HALF_LIFE_HOURS} hours, newest first: their task threads are ready to claim. ` +
      `Use pending rows to decide whether to call task_reinforce. budget counts pending proposals ` +
      `above the floor plus recent promotions against those listed (at most limit each).`,
    example: { repo_root: '/abs/repo', branch: 'main' },
  },
  handler: (args, b: Host) => b.proposals.foragingReport(args),
});

export const proposalTools = [taskPropose, taskReinforce, taskForagingReport];

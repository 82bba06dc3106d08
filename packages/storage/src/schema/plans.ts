/**
 * @module schema/plans
 * Published plans, their sub-tasks and sub-task claims.
 *
 * Timestamps are epoch milliseconds taken from the injected clock, never from SQLite.
 */
import { sql } from 'drizzle-orm';
import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { sessions, tasks } from './threads';

/**
 * Published plans: one multi-agent plan per (repo_root, slug), advertised as a spec
 * change whose thread (`spec/<slug>`) is `spec_task_id`. The sub-tasks live in
 * `plan_subtasks`; `status` moves active -> archived when the plan's change is archived.
 */
export const plans = sqliteTable(
  'plans',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    repoRoot: text('repo_root').notNull(),
    slug: text('slug').notNull(),
    title: text('title').notNull(),
    problem: text('problem').notNull(),
    acceptanceCriteria: text('acceptance_criteria', { mode: 'json' }).$type<string[]>().notNull(),
    specTaskId: integer('spec_task_id')
      .notNull()
      .references(() => tasks.id),
    /** Where the spec change lives, e.g. openspec/changes/<slug>/CHANGE.md (repo-relative). */
    specChangePath: text('spec_change_path'),
    autoArchive: integer('auto_archive', { mode: 'boolean' }).notNull().default(false),
    createdBy: text('created_by').notNull(),
    createdByAgent: text('created_by_agent').notNull(),
    createdAt: integer('created_at').notNull(),
    /** active | archived */
    status: text('status').notNull().default('active'),
    archivedAt: integer('archived_at'),
    /** The plan-config observation written at publish time. */
    observationId: integer('observation_id').notNull(),
  },
  (t) => [uniqueIndex('plans_repo_slug_uq').on(t.repoRoot, t.slug), index('plans_created_idx').on(t.createdAt)],
);

/**
 * One sub-task of a plan, with its own task thread on `spec/<slug>/sub-<index>`.
 * `status`: blocked (a dependency is not completed yet) -> available (every dependency
 * completed) -> claimed -> completed; a released claim goes back to available. Every
 * transition is a guarded UPDATE on the expected status, so racing claimers serialize
 * on SQLite's write lock and exactly one wins. `wave_index` is the longest dependency
 * chain below the sub-task (0 for no dependencies).
 */
export const planSubtasks = sqliteTable(
  'plan_subtasks',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    planId: integer('plan_id')
      .notNull()
      .references(() => plans.id),
    subtaskIndex: integer('subtask_index').notNull(),
    title: text('title').notNull(),
    description: text('description').notNull(),
    /** Repo-relative paths, as claims key them. */
    fileScope: text('file_scope', { mode: 'json' }).$type<string[]>().notNull(),
    /** Indices of earlier sub-tasks of the same plan. */
    dependsOn: text('depends_on', { mode: 'json' }).$type<number[]>().notNull(),
    capabilityHint: text('capability_hint'),
    specRowId: text('spec_row_id'),
    taskId: integer('task_id')
      .notNull()
      .references(() => tasks.id),
    branch: text('branch').notNull(),
    waveIndex: integer('wave_index').notNull(),
    /** available | claimed | completed | blocked */
    status: text('status').notNull(),
    claimedBySessionId: text('claimed_by_session_id'),
    claimedByAgent: text('claimed_by_agent'),
    claimedAt: integer('claimed_at'),
    completedAt: integer('completed_at'),
    /** The plan-subtask advertisement observation. */
    observationId: integer('observation_id').notNull(),
  },
  (t) => [
    uniqueIndex('plan_subtasks_plan_index_uq').on(t.planId, t.subtaskIndex),
    index('plan_subtasks_status_idx').on(t.status, t.planId),
    index('plan_subtasks_claimer_idx').on(t.claimedBySessionId, t.status),
    index('plan_subtasks_spec_row_idx').on(t.specRowId),
    index('plan_subtasks_task_idx').on(t.taskId),
  ],
);

/**
 * Claims on plan sub-tasks: one row per claim, kept as history. At most one active
 * claim per sub-task, enforced by the partial unique index `plan_subtask_claims_active_uq`
 * (the guarded status update is the first line; the index makes a second active claim
 * impossible whatever the code does). state: active -> completed | released.
 */
export const planSubtaskClaims = sqliteTable(
  'plan_subtask_claims',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    subtaskId: integer('subtask_id')
      .notNull()
      .references(() => planSubtasks.id),
    sessionId: text('session_id')
      .notNull()
      .references(() => sessions.id),
    agent: text('agent').notNull(),
    /** active | completed | released */
    state: text('state').notNull(),
    claimedAt: integer('claimed_at').notNull(),
    endedAt: integer('ended_at'),
    /** The plan-subtask-claim observation that opened the claim. */
    observationId: integer('observation_id').notNull(),
  },
  (t) => [
    uniqueIndex('plan_subtask_claims_active_uq').on(t.subtaskId).where(sql`state = 'active'`),
    index('plan_subtask_claims_session_idx').on(t.sessionId, t.state),
  ],
);

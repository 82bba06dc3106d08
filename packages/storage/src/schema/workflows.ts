/**
 * @module schema/workflows
 * Workflow runs (seed 003's `colony swarm workflow`) and their stages, and iteration runs
 * (`colony swarm iterate`) and their iterations: the state that lets a run paused at an
 * approval gate, or killed mid-stage, be continued by another process. A run still
 * reading `running` whose `pid` no longer lives (or lives with another start time) was
 * interrupted. Definitions and configs are kept as JSON snapshots, so a run goes on
 * with the stages it started with even if the file changed.
 */
import { index, integer, primaryKey, real, sqliteTable, text } from 'drizzle-orm/sqlite-core';

export const workflowRuns = sqliteTable(
  'workflow_runs',
  {
    /** wf-YYYYMMDD-HHMMSS-<4 hex>. */
    id: text('id').primaryKey(),
    name: text('name').notNull(),
    repoRoot: text('repo_root').notNull(),
    /** JSON text: the validated definition the run started with. */
    definition: text('definition').notNull(),
    /** JSON text: the `--input` values. */
    inputs: text('inputs').notNull(),
    /** pending | running | awaiting_approval | completed | failed | cancelled */
    state: text('state').notNull(),
    /** The process driving it while `running`. */
    pid: integer('pid'),
    pidStarted: integer('pid_started'),
    /** Feedback of the last rejected gate, given to the stages it re-runs. */
    feedback: text('feedback'),
    error: text('error'),
    createdAt: integer('created_at').notNull(),
    updatedAt: integer('updated_at').notNull(),
    finishedAt: integer('finished_at'),
  },
  (t) => [index('workflow_runs_state_idx').on(t.state)],
);

export const workflowStages = sqliteTable(
  'workflow_stages',
  {
    runId: text('run_id')
      .notNull()
      .references(() => workflowRuns.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** Order in the definition. */
    position: integer('position').notNull(),
    /** agent | command | check | approval */
    type: text('type').notNull(),
    /** pending | running | awaiting_approval | completed | failed | rejected | cancelled */
    state: text('state').notNull(),
    attempts: integer('attempts').notNull().default(0),
    exitCode: integer('exit_code'),
    /** The stage's output (a command's stdout tail, an agent's final text), or why it failed. */
    output: text('output'),
    /** While running: the command's process group and its leader's start time. */
    pgid: integer('pgid'),
    pgidStarted: integer('pgid_started'),
    startedAt: integer('started_at'),
    finishedAt: integer('finished_at'),
    updatedAt: integer('updated_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.runId, t.name] })],
);

export const iterationRuns = sqliteTable(
  'iteration_runs',
  {
    /** it-YYYYMMDD-HHMMSS-<4 hex>. */
    id: text('id').primaryKey(),
    name: text('name').notNull(),
    repoRoot: text('repo_root').notNull(),
    /** JSON text: the validated config the run started with. */
    config: text('config').notNull(),
    maxIterations: integer('max_iterations').notNull(),
    /** running | stopped */
    state: text('state').notNull(),
    /** Why it stopped: target | no_progress | max_iterations | error | cancelled. */
    reason: text('reason'),
    bestScore: real('best_score'),
    pid: integer('pid'),
    pidStarted: integer('pid_started'),
    createdAt: integer('created_at').notNull(),
    updatedAt: integer('updated_at').notNull(),
    finishedAt: integer('finished_at'),
  },
  (t) => [index('iteration_runs_state_idx').on(t.state)],
);

export const iterations = sqliteTable(
  'iterations',
  {
    runId: text('run_id')
      .notNull()
      .references(() => iterationRuns.id, { onDelete: 'cascade' }),
    /** 1-based. */
    number: integer('number').notNull(),
    /** running | finished | failed */
    state: text('state').notNull(),
    /** The step's exit code (a command's, or 0/1 for an agent). */
    exitCode: integer('exit_code'),
    /** The probe's score; null when the probe gave none. */
    score: real('score'),
    /** 1 when the score beat every earlier one. */
    improved: integer('improved', { mode: 'boolean' }).notNull().default(false),
    output: text('output'),
    startedAt: integer('started_at').notNull(),
    finishedAt: integer('finished_at'),
  },
  (t) => [primaryKey({ columns: [t.runId, t.number] })],
);

/**
 * @module schema/runs
 * Swarm runs (seed 004's swarm_run) and their tasks: the state swarm_status and
 * swarm_collect read, so a run's status survives a server restart. A run whose `pid`
 * no longer lives (or now has another start time) while it still reads `running` was
 * interrupted. Secret values (env_vars, env) are never stored: `spec` keeps only their
 * names.
 */
import { index, integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core';

export const swarmRuns = sqliteTable(
  'swarm_runs',
  {
    /** swarm-YYYYMMDD-HHMMSS, suffixed -2, -3... when taken. */
    id: text('id').primaryKey(),
    repoRoot: text('repo_root').notNull(),
    baseRef: text('base_ref').notNull(),
    baseCommit: text('base_commit').notNull(),
    mergeStrategy: text('merge_strategy'),
    mergeTarget: text('merge_target'),
    /** running | completed | failed | interrupted */
    state: text('state').notNull(),
    /** The process running it (to tell a live run from an interrupted one). */
    pid: integer('pid').notNull(),
    /** That process's start time (Linux clock ticks since boot), so a reused pid is not taken for it. */
    pidStarted: integer('pid_started'),
    /** JSON text: the run's arguments, env values removed. */
    spec: text('spec').notNull(),
    /** JSON text: swarm_run's response, once finished. */
    result: text('result'),
    createdAt: integer('created_at').notNull(),
    finishedAt: integer('finished_at'),
  },
  (t) => [index('swarm_runs_state_idx').on(t.state)],
);

export const swarmTasks = sqliteTable(
  'swarm_tasks',
  {
    swarmId: text('swarm_id')
      .notNull()
      .references(() => swarmRuns.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** Order in the run's task list. */
    position: integer('position').notNull(),
    /** pending | waiting | executing | completed | failed | timed_out | skipped | interrupted */
    state: text('state').notNull(),
    workspaceId: text('workspace_id'),
    branch: text('branch').notNull(),
    exitCode: integer('exit_code'),
    elapsedMs: integer('elapsed_ms').notNull().default(0),
    startCommit: text('start_commit'),
    /** While executing: the command's process group id, so a recovery after the run's death can kill it. */
    pgid: integer('pgid'),
    /** The group leader's start time (Linux clock ticks since boot), guarding against pid reuse. */
    pgidStarted: integer('pgid_started'),
    updatedAt: integer('updated_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.swarmId, t.name] })],
);

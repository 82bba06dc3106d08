/**
 * @module schema
 * The drizzle schema of colony's store. Current state lives in normalized tables
 * whose constraints enforce the invariants; history lives in `observations`, which
 * is append-only and mirrored into the FTS5 index `observations_fts` by triggers
 * (see drizzle/0001_fts.sql: raw SQL is allowed there and only there).
 *
 * Timestamps are epoch milliseconds taken from the injected clock, never from SQLite.
 */
import { sql } from 'drizzle-orm';
import { blob, index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';

export type JsonObject = Record<string, unknown>;

/** One agent session: an IDE process, a worker agent, or a CLI invocation. */
export const sessions = sqliteTable(
  'sessions',
  {
    id: text('id').primaryKey(),
    ide: text('ide').notNull().default('unknown'),
    agent: text('agent'),
    cwd: text('cwd'),
    startedAt: integer('started_at').notNull(),
    endedAt: integer('ended_at'),
    lastHeartbeatAt: integer('last_heartbeat_at').notNull(),
    metadata: text('metadata', { mode: 'json' }).$type<JsonObject>(),
  },
  // Heartbeat order finds live sessions (hivemind lanes) without reading old ones.
  (t) => [index('sessions_started_idx').on(t.startedAt), index('sessions_heartbeat_idx').on(t.lastHeartbeatAt)],
);

/** A task thread: the shared conversation of everyone working on (repo_root, branch). */
export const tasks = sqliteTable(
  'tasks',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    repoRoot: text('repo_root').notNull(),
    branch: text('branch').notNull(),
    title: text('title'),
    status: text('status').notNull().default('active'),
    createdBySession: text('created_by_session'),
    createdAt: integer('created_at').notNull(),
    updatedAt: integer('updated_at').notNull(),
  },
  (t) => [uniqueIndex('tasks_repo_branch_uq').on(t.repoRoot, t.branch), index('tasks_updated_idx').on(t.updatedAt)],
);

/** Who takes part in a task thread, and as which agent. */
export const taskParticipants = sqliteTable(
  'task_participants',
  {
    taskId: integer('task_id')
      .notNull()
      .references(() => tasks.id),
    sessionId: text('session_id')
      .notNull()
      .references(() => sessions.id),
    agent: text('agent').notNull(),
    joinedAt: integer('joined_at').notNull(),
    leftAt: integer('left_at'),
  },
  (t) => [primaryKey({ columns: [t.taskId, t.sessionId] }), index('task_participants_session_idx').on(t.sessionId)],
);

/** The append-only history: every note, edit, decision and audit record. */
export const observations = sqliteTable(
  'observations',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    sessionId: text('session_id')
      .notNull()
      .references(() => sessions.id),
    taskId: integer('task_id').references(() => tasks.id),
    kind: text('kind').notNull(),
    content: text('content').notNull(),
    metadata: text('metadata', { mode: 'json' }).$type<JsonObject>(),
    replyTo: integer('reply_to'),
    ts: integer('ts').notNull(),
    tokenCount: integer('token_count').notNull().default(0),
  },
  (t) => [
    index('observations_session_idx').on(t.sessionId, t.id),
    index('observations_task_idx').on(t.taskId, t.id),
    index('observations_kind_idx').on(t.kind, t.id),
    // A lane's last edit on its thread in one probe (edits are a small share of the history).
    index('observations_edit_idx').on(t.sessionId, t.taskId, t.ts).where(sql`kind = 'edit'`),
  ],
);

/** First results of mutating tool calls, so a retry with the same key writes nothing again. */
export const idempotencyKeys = sqliteTable(
  'idempotency_keys',
  {
    tool: text('tool').notNull(),
    key: text('key').notNull(),
    argsHash: text('args_hash').notNull(),
    result: text('result', { mode: 'json' }).$type<unknown>().notNull(),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.tool, t.key] })],
);

/** One receipt per tool call: what it cost and how it ended. */
export const mcpMetrics = sqliteTable(
  'mcp_metrics',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    ts: integer('ts').notNull(),
    operation: text('operation').notNull(),
    sessionId: text('session_id'),
    durationMs: real('duration_ms').notNull(),
    inputTokens: integer('input_tokens').notNull(),
    outputTokens: integer('output_tokens').notNull(),
    ok: integer('ok', { mode: 'boolean' }).notNull(),
    errorCode: text('error_code'),
    errorMessage: text('error_message'),
  },
  (t) => [index('mcp_metrics_ts_idx').on(t.ts), index('mcp_metrics_session_op_idx').on(t.sessionId, t.operation)],
);

/**
 * File claims: who says they are editing which file of a task's repository. Claims are
 * warnings, never locks. At most one live claim (active or handoff_pending) per
 * (task, file, session), enforced by a partial unique index. Paths are stored relative
 * to the task's repo_root. Age classes (fresh, stale, weak_expired, handoff_pending)
 * are computed at read time from the injected clock, never stored.
 */
export const fileClaims = sqliteTable(
  'file_claims',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    taskId: integer('task_id')
      .notNull()
      .references(() => tasks.id),
    filePath: text('file_path').notNull(),
    sessionId: text('session_id')
      .notNull()
      .references(() => sessions.id),
    agent: text('agent').notNull(),
    /** active | handoff_pending | released | weak_expired */
    state: text('state').notNull(),
    claimedAt: integer('claimed_at').notNull(),
    refreshedAt: integer('refreshed_at').notNull(),
    /** When a handoff_pending claim weakens to weak_expired. */
    expiresAt: integer('expires_at'),
    /** The handoff or relay observation a handoff_pending claim waits on. */
    batonId: integer('baton_id'),
    observationId: integer('observation_id').notNull(),
    note: text('note'),
  },
  (t) => [
    uniqueIndex('file_claims_live_uq')
      .on(t.taskId, t.filePath, t.sessionId)
      .where(sql`state IN ('active', 'handoff_pending')`),
    index('file_claims_path_idx').on(t.filePath, t.state),
    index('file_claims_session_idx').on(t.sessionId, t.state),
    index('file_claims_baton_idx').on(t.batonId),
  ],
);

/**
 * Batons: handoffs and relays, keyed by the observation that announced them. State
 * changes (accepted, cancelled, expired) are guarded updates on `status`, so exactly one
 * of many racing acceptors wins.
 */
export const batons = sqliteTable(
  'batons',
  {
    id: integer('id')
      .primaryKey()
      .references(() => observations.id),
    taskId: integer('task_id')
      .notNull()
      .references(() => tasks.id),
    /** handoff | relay */
    kind: text('kind').notNull(),
    fromSessionId: text('from_session_id').notNull(),
    fromAgent: text('from_agent').notNull(),
    /** claude | codex | any */
    toAgent: text('to_agent').notNull(),
    toSessionId: text('to_session_id'),
    /** pending | accepted | cancelled | expired */
    status: text('status').notNull(),
    summary: text('summary').notNull(),
    payload: text('payload', { mode: 'json' }).$type<JsonObject>().notNull(),
    createdAt: integer('created_at').notNull(),
    expiresAt: integer('expires_at').notNull(),
    resolvedAt: integer('resolved_at'),
    resolvedBySessionId: text('resolved_by_session_id'),
    resolutionReason: text('resolution_reason'),
  },
  (t) => [index('batons_task_status_idx').on(t.taskId, t.status), index('batons_status_idx').on(t.status, t.expiresAt)],
);

/**
 * Directed and broadcast messages, keyed by their observation. The body lives in the
 * observation (searchable, audited); this row carries addressing and lifecycle.
 */
export const messages = sqliteTable(
  'messages',
  {
    id: integer('id')
      .primaryKey()
      .references(() => observations.id),
    taskId: integer('task_id')
      .notNull()
      .references(() => tasks.id),
    fromSessionId: text('from_session_id').notNull(),
    fromAgent: text('from_agent').notNull(),
    /** claude | codex | any */
    toAgent: text('to_agent').notNull(),
    toSessionId: text('to_session_id'),
    /** fyi | needs_reply | blocking */
    urgency: text('urgency').notNull(),
    /** unread | read | replied | expired | retracted */
    status: text('status').notNull(),
    replyTo: integer('reply_to'),
    createdAt: integer('created_at').notNull(),
    expiresAt: integer('expires_at'),
    statusChangedAt: integer('status_changed_at').notNull(),
    claimedBySessionId: text('claimed_by_session_id'),
    claimedByAgent: text('claimed_by_agent'),
    claimedAt: integer('claimed_at'),
  },
  (t) => [
    index('messages_to_idx').on(t.toAgent, t.status),
    index('messages_to_session_idx').on(t.toSessionId, t.status),
    index('messages_task_idx').on(t.taskId, t.id),
  ],
);

/** Bidirectional links between task threads, stored once as (low_id, high_id). */
export const taskLinks = sqliteTable(
  'task_links',
  {
    lowId: integer('low_id')
      .notNull()
      .references(() => tasks.id),
    highId: integer('high_id')
      .notNull()
      .references(() => tasks.id),
    createdAt: integer('created_at').notNull(),
    createdBy: text('created_by').notNull(),
    note: text('note'),
  },
  (t) => [primaryKey({ columns: [t.lowId, t.highId] }), index('task_links_high_idx').on(t.highId)],
);

/**
 * Seed-000 write proposals: a whole-file write an agent asks for, waiting for the
 * arbiter. pending -> rejected | approved (approved, not written: writes not allowed)
 * | applied | failed (the write was refused or failed; error_code says why), and
 * pending -> superseded when a newer proposal for the same path arrives. At most one
 * pending proposal per (repo_root, path), by a partial unique index. `path` is
 * relative to repo_root, the workspace.
 */
export const writeProposals = sqliteTable(
  'write_proposals',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    repoRoot: text('repo_root').notNull(),
    path: text('path').notNull(),
    content: text('content').notNull(),
    createDirs: integer('create_dirs', { mode: 'boolean' }).notNull(),
    agent: text('agent').notNull(),
    /** pending | approved | applied | failed | rejected | superseded */
    status: text('status').notNull(),
    createdAt: integer('created_at').notNull(),
    /** The write-proposal observation. */
    observationId: integer('observation_id').notNull(),
    decidedBy: text('decided_by'),
    decidedAt: integer('decided_at'),
    notes: text('notes'),
    errorCode: text('error_code'),
  },
  (t) => [
    uniqueIndex('write_proposals_pending_uq').on(t.repoRoot, t.path).where(sql`status = 'pending'`),
    index('write_proposals_status_idx').on(t.repoRoot, t.status, t.id),
  ],
);

/**
 * Seed-000 shared context: one versioned JSON value per key. `version` starts at 1
 * and grows by one per write, so conditional writes (if_version) are one guarded
 * UPDATE. `value` holds JSON text. High-volume: rows carry who and when instead of an
 * observation per write.
 */
export const contextEntries = sqliteTable('context_entries', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
  version: integer('version').notNull(),
  updatedBy: text('updated_by').notNull(),
  updatedAt: integer('updated_at').notNull(),
});

/**
 * Seed-000 work queue, FIFO by id. queued -> claimed (claimed_by, lease_until) -> done.
 * A claimed item whose lease_until has passed is available again: expiry is computed
 * from the injected clock at read time, never written by a sweeper. Hand-outs are
 * guarded UPDATEs inside BEGIN IMMEDIATE, so no item has two holders at once. The
 * partial index keeps "oldest open item" cheap however many items are done.
 */
export const queueItems = sqliteTable(
  'queue_items',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    kind: text('kind').notNull(),
    /** JSON text. */
    payload: text('payload').notNull(),
    /** queued | claimed | done */
    status: text('status').notNull(),
    claimedBy: text('claimed_by'),
    leaseUntil: integer('lease_until'),
    /** How many leases were handed out for this item. */
    attempts: integer('attempts').notNull().default(0),
    /** JSON text given to coord_complete. */
    result: text('result'),
    enqueuedBy: text('enqueued_by').notNull(),
    createdAt: integer('created_at').notNull(),
    claimedAt: integer('claimed_at'),
    completedBy: text('completed_by'),
    completedAt: integer('completed_at'),
  },
  (t) => [
    index('queue_items_open_idx').on(t.id).where(sql`status != 'done'`),
    index('queue_items_status_idx').on(t.status, t.leaseUntil),
  ],
);

/**
 * Seed-001 context mesh: one JSON value per key, readable by everyone (`subscribers`
 * NULL) or only by its `owner` and the agents of the `subscribers` JSON array. A key
 * whose `expires_at` has passed is gone: reads compute that from the injected clock,
 * and write transactions delete such rows. `version` counts writes since the key was
 * (re)created. High-volume like `context_entries`: no observation per write.
 */
export const meshContext = sqliteTable(
  'mesh_context',
  {
    key: text('key').primaryKey(),
    /** JSON text. */
    value: text('value').notNull(),
    owner: text('owner').notNull(),
    /** JSON array of agent names; NULL: every agent may read. */
    subscribers: text('subscribers'),
    version: integer('version').notNull(),
    createdAt: integer('created_at').notNull(),
    updatedAt: integer('updated_at').notNull(),
    expiresAt: integer('expires_at'),
  },
  (t) => [index('mesh_context_expires_idx').on(t.expiresAt).where(sql`expires_at IS NOT NULL`)],
);

/**
 * Seed-001 agent messages, keyed by the `agent-message` observation holding the body.
 * One row per message, broadcast or direct; who receives it, and whether they read
 * it, lives in `mesh_message_recipients`. `confirms_id` marks a read confirmation.
 */
export const meshMessages = sqliteTable(
  'mesh_messages',
  {
    id: integer('id')
      .primaryKey()
      .references(() => observations.id),
    fromAgent: text('from_agent').notNull(),
    /** info | task | result | error | question */
    messageType: text('message_type').notNull(),
    /** low | normal | high | urgent */
    priority: text('priority').notNull(),
    threadId: text('thread_id'),
    requiresConfirmation: integer('requires_confirmation', { mode: 'boolean' }).notNull(),
    confirmsId: integer('confirms_id'),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [index('mesh_messages_thread_idx').on(t.threadId, t.fromAgent)],
);

/** One row per (message, recipient): the recipient's read flag. Read once: read_at never changes after. */
export const meshMessageRecipients = sqliteTable(
  'mesh_message_recipients',
  {
    messageId: integer('message_id')
      .notNull()
      .references(() => meshMessages.id),
    agent: text('agent').notNull(),
    readAt: integer('read_at'),
  },
  (t) => [
    primaryKey({ columns: [t.messageId, t.agent] }),
    index('mesh_recipients_inbox_idx').on(t.agent, t.readAt, t.messageId),
  ],
);

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

/**
 * Capability profiles: how well an agent type does each kind of work, as weights in
 * [0, 1] keyed by dimension (ui_work, api_work, ...). One row per agent name; a
 * dimension missing from `capabilities` reads as the default weight.
 */
export const agentProfiles = sqliteTable('agent_profiles', {
  agent: text('agent').primaryKey(),
  capabilities: text('capabilities', { mode: 'json' }).$type<Record<string, number>>().notNull(),
  createdAt: integer('created_at').notNull(),
  updatedAt: integer('updated_at').notNull(),
});

/**
 * Proposed improvements on (repo_root, branch), waiting for reinforcement. Strength is
 * computed at read time from `proposal_reinforcements` and the injected clock, never
 * stored. Promotion is a guarded update (status 'pending' -> 'promoted') that also sets
 * task_id, so of many racing reinforcements exactly one creates the task.
 */
export const proposals = sqliteTable(
  'proposals',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    repoRoot: text('repo_root').notNull(),
    branch: text('branch').notNull(),
    summary: text('summary').notNull(),
    rationale: text('rationale').notNull(),
    touchesFiles: text('touches_files', { mode: 'json' }).$type<string[]>().notNull(),
    /** pending | promoted */
    status: text('status').notNull(),
    proposedBySession: text('proposed_by_session')
      .notNull()
      .references(() => sessions.id),
    observationId: integer('observation_id').notNull(),
    createdAt: integer('created_at').notNull(),
    promotedAt: integer('promoted_at'),
    taskId: integer('task_id').references(() => tasks.id),
  },
  (t) => [index('proposals_scope_idx').on(t.repoRoot, t.branch, t.status)],
);

/**
 * Evidence for a proposal, one row per reinforcement (the proposer's own row is kind
 * 'proposed'). `weight` is the base weight stored when the row was written: later
 * changes to the weight table never rewrite history.
 */
export const proposalReinforcements = sqliteTable(
  'proposal_reinforcements',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    proposalId: integer('proposal_id')
      .notNull()
      .references(() => proposals.id),
    sessionId: text('session_id')
      .notNull()
      .references(() => sessions.id),
    /** The session's agent family (claude, codex, ...) or 'unknown'. */
    agentType: text('agent_type').notNull(),
    /** proposed | explicit | rediscovered | adjacent */
    kind: text('kind').notNull(),
    weight: real('weight').notNull(),
    ts: integer('ts').notNull(),
    observationId: integer('observation_id').notNull(),
  },
  (t) => [index('proposal_reinforcements_proposal_idx').on(t.proposalId, t.ts)],
);

/**
 * Test failures seen while building a spec change, one row per (repo_root, signature):
 * the count decides when a failure is promoted to an invariant proposal.
 */
export const specFailures = sqliteTable(
  'spec_failures',
  {
    repoRoot: text('repo_root').notNull(),
    signatureHash: text('signature_hash').notNull(),
    testId: text('test_id').notNull(),
    summary: text('summary').notNull(),
    count: integer('count').notNull(),
    firstSeenAt: integer('first_seen_at').notNull(),
    lastSeenAt: integer('last_seen_at').notNull(),
    proposalId: integer('proposal_id').references(() => proposals.id),
  },
  (t) => [primaryKey({ columns: [t.repoRoot, t.signatureHash] })],
);

/**
 * Embedding vectors of observations: one per observation, from the embedder named by
 * `embedder_id` (a row whose vector came from another embedder counts as missing, and
 * is re-embedded and replaced). Keyed by the observation id itself, so reading a
 * candidate's vector is one rowid lookup. Never written on the insert path: a backfill
 * embeds the rows that have no vector for the current embedder yet, in bounded
 * batches, so rows without one simply score by keywords. `vector` is a Float32 array of
 * `dims` values (platform byte order), L2-normalized.
 */
export const observationVectors = sqliteTable('observation_vectors', {
  observationId: integer('observation_id')
    .primaryKey()
    .references(() => observations.id),
  embedderId: text('embedder_id').notNull(),
  dims: integer('dims').notNull(),
  vector: blob('vector', { mode: 'buffer' }).notNull(),
});

/**
 * Per task and embedder, the sum of its observations' vectors and how many were added:
 * the task's direction (the normalized sum) is read without touching every row. The
 * backfill adds to it in the same transaction as the vectors it writes.
 */
export const taskVectors = sqliteTable(
  'task_vectors',
  {
    taskId: integer('task_id')
      .notNull()
      .references(() => tasks.id),
    embedderId: text('embedder_id').notNull(),
    dims: integer('dims').notNull(),
    sum: blob('sum', { mode: 'buffer' }).notNull(),
    count: integer('count').notNull(),
  },
  (t) => [primaryKey({ columns: [t.taskId, t.embedderId] })],
);

/**
 * Example projects ("food sources") under `<repo_root>/examples/<example_name>/`, as the
 * forager last indexed them: one row per (repo_root, example_name). `summary` is the
 * structured index (manifest dependencies, scripts, entrypoints, notable files, notes)
 * that examples_integrate_plan reads. The example's current `foraged-pattern`
 * observations are the ids first_pattern_id..last_pattern_id (written contiguously in
 * one transaction; a re-index of a changed example moves the range, superseding the old
 * ones), so observation_count and examples_query follow the current index only.
 * `content_hash` is the hash of what an index writes: an unchanged example writes nothing.
 * Searched through the FTS5 table `examples_fts` (current patterns only, rowid =
 * observation id), which drizzle cannot declare: it is created by hand-written SQL at
 * the end of migration 0010_examples.sql, as observations_fts is in 0001_fts.sql.
 */
export const examples = sqliteTable(
  'examples',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    repoRoot: text('repo_root').notNull(),
    exampleName: text('example_name').notNull(),
    manifestKind: text('manifest_kind'),
    observationCount: integer('observation_count').notNull().default(0),
    contentHash: text('content_hash').notNull(),
    firstPatternId: integer('first_pattern_id'),
    lastPatternId: integer('last_pattern_id'),
    summary: text('summary', { mode: 'json' }).$type<JsonObject>().notNull(),
    lastScannedAt: integer('last_scanned_at').notNull(),
  },
  (t) => [
    uniqueIndex('examples_repo_name_uq').on(t.repoRoot, t.exampleName),
    index('examples_name_idx').on(t.exampleName),
  ],
);

export * from './schema-runs';

/**
 * @module errors
 * The one error shape of colony. Every refusal a tool can answer with carries a code
 * from the closed union below; agents branch on the code, people read the message.
 * Codes are part of the contract: renaming one breaks skills written against it.
 */

export const ERROR_CODES = [
  // Input
  'INVALID_PARAMETERS',
  'UNKNOWN_TOOL',
  'IDEMPOTENCY_KEY_REUSED',
  // Not found
  'SESSION_NOT_FOUND',
  'TASK_NOT_FOUND',
  'OBSERVATION_NOT_FOUND',
  'ACTIVE_TASK_NOT_FOUND',
  // Task-thread lifecycle
  'AMBIGUOUS_ACTIVE_TASK',
  'NOT_PARTICIPANT',
  'OBSERVATION_NOT_ON_TASK',
  'TASK_MISMATCH',
  'PATH_OUTSIDE_REPO',
  'ROOT_NOT_ALLOWED',
  // Handoffs, relays and quota claims
  'HANDOFF_EXPIRED',
  'NOT_TARGET_AGENT',
  'NOT_TARGET_SESSION',
  'ALREADY_ACCEPTED',
  'HANDOFF_CANCELLED',
  // Messages
  'NOT_MESSAGE',
  'NOT_SENDER',
  'NOT_BROADCAST',
  'MESSAGE_EXPIRED',
  'ALREADY_RETRACTED',
  'ALREADY_REPLIED',
  'ALREADY_CLAIMED',
  // Links
  'TASK_LINK_SELF',
  // Framework tools (seed 000): workspace files, write proposals, work queue, rate limits
  'PATH_NOT_FOUND',
  'PATH_IGNORED',
  'PROPOSAL_NOT_FOUND',
  'WRITES_NOT_ALLOWED',
  'QUEUE_ITEM_NOT_FOUND',
  'QUEUE_ITEM_DONE',
  'LEASE_NOT_HELD',
  'RATE_LIMITED',
  // Context mesh and agent messages (seed 001)
  'INVALID_AGENT',
  'ACCESS_DENIED',
  'KEY_NOT_FOUND',
  'TIMEOUT',
  // Plans
  'PLAN_INVALID_WAVE_DEPENDENCY',
  'PLAN_WAVE_SCOPE_OVERLAP',
  'PLAN_SCOPE_OVERLAP',
  'PLAN_FINALIZER_NOT_LAST',
  'PLAN_ALREADY_PUBLISHED',
  'PLAN_AMBIGUOUS',
  'PLAN_SUBTASK_NOT_FOUND',
  'PLAN_SUBTASK_DEPS_UNMET',
  'PLAN_SUBTASK_NOT_AVAILABLE',
  'PLAN_SUBTASK_NOT_CLAIMED',
  'PLAN_SUBTASK_NOT_YOURS',
  // Rescue
  'RESCUE_CONFIRM_REQUIRED',
  // Proposals and specs
  'SPEC_NOT_FOUND',
  'SPEC_CHANGE_NOT_FOUND',
  'SPEC_CHANGE_EXISTS',
  'SPEC_ROW_NOT_FOUND',
  'SPEC_ROW_EXISTS',
  'SPEC_TASK_NOT_FOUND',
  'SPEC_ARCHIVE_CONFLICT',
  // Runtime (seed 004 on git worktrees): workspaces, exec_parallel, swarm_run
  'EXEC_NOT_ALLOWED',
  'WORKSPACE_NOT_FOUND',
  'WORKSPACE_DIRTY',
  'WORKSPACE_UNMERGED',
  'SWARM_NOT_FOUND',
  'SWARM_NOT_FINISHED',
  'DIRTY_TREE',
  'GIT_TOO_OLD',
  // Store (the SQLite file itself)
  /** Another writer held the store's lock past the busy timeout; nothing was written. Retryable: details.retry_after_ms. */
  'STORE_BUSY',
  /** The store file (or its folder) is not writable by this process: reads are served, writes refused. */
  'STORE_READ_ONLY',
  /** The store file is not a readable database (not SQLite, truncated, corrupt): the message names it and what to do. */
  'STORE_CORRUPT',
  /** The store was written by a newer colony: reads are served, writes refused; details name both schema versions. */
  'STORE_TOO_NEW',
  /** The store's dialect (PostgreSQL) has no twin of this query yet: nothing was done; the same call works on SQLite. */
  'STORE_UNSUPPORTED',
  /** The store's database server (PostgreSQL) could not be reached or refused the login: nothing was done; retryable. */
  'STORE_UNREACHABLE',
  // Environment
  'FEATURE_UNAVAILABLE',
  'INTERNAL_ERROR',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

export interface ColonyErrorOptions {
  /** Extra structured fields returned beside code and error (candidates, missing ids...). */
  readonly details?: Record<string, unknown>;
  readonly cause?: unknown;
}

/** A domain refusal with a stable code. Thrown inside a write transaction, it rolls the write back. */
export class ColonyError extends Error {
  override readonly name = 'ColonyError';
  readonly code: ErrorCode;
  readonly details: Record<string, unknown>;

  constructor(code: ErrorCode, message: string, options: ColonyErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.details = options.details ?? {};
  }
}

export function isColonyError(value: unknown): value is ColonyError {
  return value instanceof ColonyError;
}

/**
 * How a tool words a refusal. `colony`: `{ code, error, tool, timestamp }` plus any
 * details. `syntha`: the shape seed 001 fixes for its function-calling tools,
 * `{ success: false, error, error_code, tool, timestamp }` plus any details.
 */
export type ErrorFormat = 'colony' | 'syntha';

/**
 * What a failed tool call answers: `{ code, error, tool, timestamp }` plus any details.
 * Two exceptions, fixed by the seeds: RATE_LIMITED answers seed 000's `{ error:
 * "rate_limited", code: 429, tool, limit, remaining, reset_sec, scope }` (plus
 * timestamp), and tools in the `syntha` format answer seed 001's `{ success: false,
 * error, error_code, tool, timestamp }`.
 */
export type ToolErrorPayload = ColonyErrorPayload | SynthaErrorPayload;

export interface ColonyErrorPayload {
  readonly code: ErrorCode | typeof RATE_LIMITED_STATUS;
  readonly error: string;
  readonly tool: string;
  readonly timestamp: string;
  readonly [detail: string]: unknown;
}

export interface SynthaErrorPayload {
  readonly success: false;
  readonly error: string;
  readonly error_code: ErrorCode;
  readonly tool: string;
  readonly timestamp: string;
  readonly [detail: string]: unknown;
}

/** The numeric code seed 000 gives a rate-limited answer. */
export const RATE_LIMITED_STATUS = 429;

export function toErrorPayload(
  error: ColonyError,
  tool: string,
  now: number,
  format: ErrorFormat = 'colony',
): ToolErrorPayload {
  const timestamp = new Date(now).toISOString();
  if (format === 'syntha') {
    return { success: false, error: error.message, error_code: error.code, tool, timestamp, ...error.details };
  }
  if (error.code === 'RATE_LIMITED') {
    return { error: 'rate_limited', code: RATE_LIMITED_STATUS, tool, ...error.details, timestamp };
  }
  return { code: error.code, error: error.message, tool, timestamp, ...error.details };
}

/** The colony code of an error payload, whichever shape it has. */
export function errorCodeOf(payload: ToolErrorPayload): ErrorCode {
  if (payload.success === false) return (payload as SynthaErrorPayload).error_code;
  const { code } = payload as ColonyErrorPayload;
  return code === RATE_LIMITED_STATUS ? 'RATE_LIMITED' : code;
}

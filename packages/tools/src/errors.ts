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
  'PROPOSAL_NOT_FOUND',
  'SPEC_NOT_FOUND',
  'SPEC_CHANGE_NOT_FOUND',
  'SPEC_CHANGE_EXISTS',
  'SPEC_ROW_NOT_FOUND',
  'SPEC_ROW_EXISTS',
  'SPEC_TASK_NOT_FOUND',
  'SPEC_ARCHIVE_CONFLICT',
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

/** What a failed tool call answers: `{ code, error, tool, timestamp }` plus any details. */
export interface ToolErrorPayload {
  readonly code: ErrorCode;
  readonly error: string;
  readonly tool: string;
  readonly timestamp: string;
  readonly [detail: string]: unknown;
}

export function toErrorPayload(error: ColonyError, tool: string, now: number): ToolErrorPayload {
  return { code: error.code, error: error.message, tool, timestamp: new Date(now).toISOString(), ...error.details };
}

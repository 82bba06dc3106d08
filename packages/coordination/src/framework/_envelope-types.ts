/**
 * @module framework/envelope-types
 * The shapes of the seed-000 envelope parser, shared by envelope.ts and the call
 * extraction in _envelope-calls.ts (a leaf: imports nothing).
 */

export interface ToolCallRequest {
  readonly name: string;
  readonly args: Record<string, unknown>;
}

export interface EnvelopeError {
  /** parse_error: JSON that mentions tool_calls but does not parse; invalid_call: a call without a usable name or args. */
  readonly error: 'parse_error' | 'invalid_envelope' | 'invalid_call';
  readonly message: string;
  /** 1-based line of the reply where the offending JSON starts. */
  readonly line: number;
  /** The start of the offending text, for the transcript. */
  readonly excerpt: string;
}

/** An error before its place in the reply is worked out (only for the ones reported). */
export type Unlocated = Omit<EnvelopeError, 'line' | 'excerpt'>;

export interface Found {
  readonly at: number;
  readonly calls: ToolCallRequest[];
  readonly errors: Unlocated[];
  readonly envelope: boolean;
}

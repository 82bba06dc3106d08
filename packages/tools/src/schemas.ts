/**
 * @module schemas
 * Argument pieces shared by many tools. Limits here are the oversize-payload guard:
 * anything past them is INVALID_PARAMETERS before a handler runs.
 */
import { isAbsolute } from 'node:path';
import { z } from 'zod';

/** Largest observation body accepted, in characters (64 KiB). */
export const MAX_CONTENT_CHARS = 65_536;

// biome-ignore lint/suspicious/noControlCharactersInRegex: rejecting control characters is the point
const CONTROL = /[\u0000-\u001f\u007f]/;

/**
 * Whether a string is well-formed UTF-16 (no lone surrogate). SQLite stores text as
 * UTF-8, so a lone surrogate would be stored replaced (U+FFFD) and never match the id
 * the caller sends next: such strings are refused before they reach the store.
 */
export function isWellFormed(s: string): boolean {
  return (s as string & { isWellFormed(): boolean }).isWellFormed();
}

export const WELL_FORMED_MESSAGE = 'must be well-formed Unicode (no lone UTF-16 surrogate)';

/** Any well-formed string (the base of ids and names a fixed outside schema leaves unbounded). */
export const wellFormed = () => z.string().refine(isWellFormed, WELL_FORMED_MESSAGE);

/** A non-empty string of at most `max` characters, well-formed, without control characters. */
export const text = (max: number) =>
  z
    .string()
    .min(1)
    .max(max)
    .refine((s) => !CONTROL.test(s), 'must not contain control characters')
    .refine(isWellFormed, WELL_FORMED_MESSAGE);

export const sessionId = text(200);
export const agentName = text(64);
export const observationKind = text(64);
export const branchName = text(255);
export const observationId = z.int().positive();
export const taskId = z.int().positive();
export const timestampMs = z.int().nonnegative();
export const content = z.string().min(1).max(MAX_CONTENT_CHARS);
export const repoRoot = text(4096).refine(isAbsolute, 'must be an absolute path');

/** An optional result cap with a default and a hard maximum. */
export const limit = (fallback: number, max: number) => z.int().min(1).max(max).default(fallback);

/** A file of a task's repository: relative to repo_root, or absolute inside it. */
export const filePath = text(4096);
/** A short free-text reason or note (one line or a few). */
export const shortText = text(500);
/** Whom a handoff or relay is for. */
export const TARGET_AGENTS = ['claude', 'codex', 'any'] as const;
export const targetAgent = z.enum(TARGET_AGENTS);
/** A time-to-live in minutes with a default and a hard maximum. */
export const ttlMinutes = (fallback: number, max: number) => z.int().min(1).max(max).default(fallback);
/** A shared-context key (seed 000 ctx_* tools). */
export const contextKey = text(200);

/** A file or folder inside a workspace; the service confines it to the workspace root. */
export const workspacePath = text(4096);

/** Any JSON value, at most MAX_CONTENT_CHARS once serialized. */
export const jsonValue = z.unknown().refine((value) => {
  try {
    const json = JSON.stringify(value);
    return json !== undefined && json.length <= MAX_CONTENT_CHARS;
  } catch {
    return false;
  }
}, `must be JSON of at most ${MAX_CONTENT_CHARS} characters`);

/** The budget object of compact reads (ARCHITECTURE principle 5). */
export interface BudgetInfo {
  items_available: number;
  items_returned: number;
  collapsed_count: number;
  estimated_tokens_returned: number;
  hydrate_with: string;
  why_collapsed: string | null;
}
/**
 * The budget object when nothing was left out, as the tools that trim it answer
 * (attention_inbox, issue 17): the rest would only say "0 collapsed, why: null".
 */
export interface WholeBudgetInfo {
  items_returned: number;
  estimated_tokens_returned: number;
}
/** A JSON object (not an array, not a scalar), at most MAX_CONTENT_CHARS once serialized. */
export const jsonObject = z
  .record(z.string(), z.unknown())
  .refine((value) => jsonValue.safeParse(value).success, `must be JSON of at most ${MAX_CONTENT_CHARS} characters`);

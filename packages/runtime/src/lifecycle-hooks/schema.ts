/**
 * @module lifecycle-hooks/schema
 * The `hooks` settings block as seed 003 writes it: per event key an array of matcher
 * groups `{ matcher?, hooks: [{ type: "command", command, timeout?, async?,
 * status_message? }] }`. Strict: an unknown event key or field is an error naming it;
 * a matcher must compile as a regular expression.
 */
import { z } from 'zod';
import { HOOK_EVENT_KEYS, type HookEventKey } from './events.js';

export const DEFAULT_HOOK_TIMEOUT_SECS = 30;

export const HookHandlerSchema = z.strictObject({
  type: z.literal('command'),
  command: z.string().min(1),
  /** Seconds; default 30. */
  timeout: z.number().int().positive().optional(),
  async: z.boolean().optional(),
  status_message: z.string().nullable().optional(),
});

export const MatcherGroupSchema = z.strictObject({
  matcher: z
    .string()
    .nullable()
    .optional()
    .refine((m) => m == null || compiles(m), { message: 'matcher is not a valid regular expression' }),
  hooks: z.array(HookHandlerSchema),
});

export const HooksConfigSchema = z.strictObject(
  Object.fromEntries(HOOK_EVENT_KEYS.map((key) => [key, z.array(MatcherGroupSchema).optional()])) as Record<
    HookEventKey,
    z.ZodOptional<z.ZodArray<typeof MatcherGroupSchema>>
  >,
);

export type HookHandler = z.infer<typeof HookHandlerSchema>;
export type MatcherGroup = z.infer<typeof MatcherGroupSchema>;
export type HooksConfig = Partial<Record<HookEventKey, MatcherGroup[]>>;

function compiles(pattern: string): boolean {
  try {
    new RegExp(pattern);
    return true;
  } catch {
    return false;
  }
}

/**
 * @module pg/wake/payload
 * What a `colony_wake` notification carries (drizzle-pg/0002_wake_notify.sql): which
 * row should wake whom, never a body. Parsed with zod, so a malformed payload (another
 * writer on the channel, a future migration) is a value the listener reports, not a
 * throw inside its connection's event loop.
 */
import { z } from 'zod';

/** The channel colony's wake triggers notify on. */
export const WAKE_CHANNEL = 'colony_wake';

export const WakeNoticeSchema = z.object({
  /** `message`: an unread `blocking` or `needs_reply` message; `handoff`: a pending baton (handoff or relay). */
  kind: z.enum(['message', 'handoff']),
  /** The message's or baton's id (its observation id). */
  id: z.number().int(),
  task_id: z.number().int(),
  /** The addressee (clipped to 200 characters by the trigger). */
  to_agent: z.string(),
  /** The addressed session, or null for a message or baton to an agent kind (clipped to 500). */
  to_session_id: z.string().nullable(),
  /** The message's urgency; null for a baton. */
  urgency: z.string().nullable(),
});

export type WakeNotice = z.infer<typeof WakeNoticeSchema>;

/** The notice in `payload`, or why it is not one. */
export function parseWakeNotice(
  payload: string | undefined,
): { ok: true; notice: WakeNotice } | { ok: false; why: string } {
  let json: unknown;
  try {
    json = JSON.parse(payload ?? '');
  } catch {
    return { ok: false, why: `not JSON: ${JSON.stringify((payload ?? '').slice(0, 120))}` };
  }
  const parsed = WakeNoticeSchema.safeParse(json);
  if (parsed.success) return { ok: true, notice: parsed.data };
  return { ok: false, why: parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ') };
}

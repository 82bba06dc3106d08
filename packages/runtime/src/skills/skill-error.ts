/**
 * @module skills/skill-error
 * The refusals of the skill system, each with a stable code: a name outside
 * `[a-zA-Z0-9_:-]` (path traversal included), a skill found nowhere, a skill only the
 * user may invoke, a fork naming an agent the session does not have.
 */

/** Names the seed accepts; anything else (`/`, `..`, spaces) could leave the skill folders. */
export const SKILL_NAME = /^[a-zA-Z0-9_:-]+$/;

export type SkillErrorCode = 'invalid_name' | 'not_found' | 'model_invocation_disabled' | 'unknown_agent';

/** An expected refusal, as a value (`resolveSkill`) or thrown by a caller that wants to. */
export interface SkillRefusal {
  readonly ok: false;
  readonly code: SkillErrorCode;
  readonly message: string;
}

export class SkillError extends Error {
  constructor(
    readonly code: SkillErrorCode,
    message: string,
  ) {
    super(message);
  }
}

export function refusal(code: SkillErrorCode, message: string): SkillRefusal {
  return { ok: false, code, message };
}

/** The refusal for a name the seed rejects, or null when the name is valid. */
export function checkSkillName(name: string): SkillRefusal | null {
  if (SKILL_NAME.test(name)) return null;
  return refusal(
    'invalid_name',
    `invalid skill name ${JSON.stringify(name)}: only letters, digits, "_", ":" and "-" are allowed`,
  );
}

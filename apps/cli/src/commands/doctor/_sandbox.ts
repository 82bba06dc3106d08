/**
 * @module doctor/sandbox
 * Which sandbox the runtime would run commands in.
 *
 * SEAM(sandbox): `detectSandbox()` comes with the sandbox work (branch feat/sandbox);
 * until it is merged this check reports "unknown (not built)". The integrator replaces
 * the body with a call to it and maps its answer to a DoctorCheck.
 */
import type { DoctorCheck } from './_check';

export function sandboxCheck(): DoctorCheck {
  return { id: 'sandbox', status: 'ok', message: 'unknown (not built)', details: { sandbox: null } };
}

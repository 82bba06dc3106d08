/**
 * @module doctor/sandbox
 * Which OS sandbox the runtime runs agent commands in (`detectSandbox()`: bubblewrap on
 * Linux, tried once for real; sandbox-exec on macOS). None is a warning, not a failure:
 * agents then run commands unconfined, and `sandbox.mode: required` would refuse them.
 * Loads @swarm/core only here, so a native module that does not load shows in its own
 * check, not as a crash of doctor.
 */
import type { DoctorCheck } from './_check';

export async function sandboxCheck(): Promise<DoctorCheck> {
  try {
    const { detectSandbox } = await import('@swarm/core');
    const found = detectSandbox();
    if (found.kind) {
      return {
        id: 'sandbox',
        status: 'ok',
        message: `${found.kind} (${found.binary})`,
        details: { sandbox: found.kind, binary: found.binary },
      };
    }
    return {
      id: 'sandbox',
      status: 'warn',
      message: `none: agent commands run unconfined (${found.reason})`,
      fix: 'install bubblewrap (Debian/Ubuntu: apt-get install bubblewrap); see docs/sandbox.md',
      details: { sandbox: null, reason: found.reason },
    };
  } catch (error) {
    return {
      id: 'sandbox',
      status: 'warn',
      message: `not checked: colony did not load (${(error as Error).message.split('\n')[0]})`,
      details: { sandbox: null },
    };
  }
}

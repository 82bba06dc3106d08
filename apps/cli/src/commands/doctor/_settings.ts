/**
 * @module doctor/settings
 * `<home>/settings.json`: absent (defaults), valid, or with the warning colony would
 * print (it then runs on defaults). Loads @swarm/core only here, so a native module
 * that does not load shows in its own check, not as a crash of doctor.
 */
import { join } from 'node:path';
import type { DoctorCheck } from './_check';

export async function settingsCheck(home: string): Promise<DoctorCheck> {
  const path = join(home, 'settings.json');
  try {
    const { loadSettings } = await import('@swarm/core');
    const { warning } = loadSettings(home);
    if (warning)
      return { id: 'settings', status: 'warn', message: warning, fix: `fix or remove ${path}`, details: { path } };
    return { id: 'settings', status: 'ok', message: `${path} (absent means defaults)`, details: { path } };
  } catch (error) {
    return {
      id: 'settings',
      status: 'warn',
      message: `not checked: colony did not load (${(error as Error).message.split('\n')[0]})`,
      details: { path },
    };
  }
}

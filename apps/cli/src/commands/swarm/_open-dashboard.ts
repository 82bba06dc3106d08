/**
 * @module swarm/open-dashboard
 * What `colony swarm start` (on a terminal) and `colony swarm attach` share: refuse
 * without a running session, open the dashboard (ink loaded here, lazily), and say on
 * leaving whether the session keeps running or was stopped.
 */
import type { StoreFlags } from '../../_colony';
import { CliError, printLines } from '../../_output';
import { control, controlOptions } from './_session';

export async function openDashboard(args: StoreFlags & { repo?: string | undefined }): Promise<void> {
  const { repoRootOf, readSessionStatus } = await import('@swarm/core/runtime');
  const root = await control(() => repoRootOf(controlOptions(args).cwd));
  const session = readSessionStatus(root).session;
  if (!session?.active) throw new CliError('no running session (colony swarm start starts one)');
  const { runDashboard } = await loadDashboard();
  const result = await runDashboard(root, args);
  const running = readSessionStatus(root).session?.active === true;
  printLines([
    result.reason === 'stop'
      ? result.notice
      : running
        ? `detached: session ${session.id} keeps running (colony swarm attach reopens the dashboard, colony swarm stop ends it)`
        : `session ${session.id} has ended`,
  ]);
  // Exit now: the dashboard's store handle and timers must not keep the process open.
  process.exit(0);
}

/**
 * ink renders only its last frame when it believes it runs in CI (`CI` or
 * `CONTINUOUS_INTEGRATION` set, read once when ink loads). The dashboard opens only on a
 * terminal, where a person watches, so ink is loaded with both hidden; the process's
 * environment is given back at once (commands it spawns later still see them).
 */
async function loadDashboard(): Promise<typeof import('./tui/run')> {
  const saved = { CI: process.env.CI, CONTINUOUS_INTEGRATION: process.env.CONTINUOUS_INTEGRATION };
  delete process.env.CI;
  delete process.env.CONTINUOUS_INTEGRATION;
  try {
    return await import('./tui/run');
  } finally {
    for (const [key, value] of Object.entries(saved)) if (value !== undefined) process.env[key] = value;
  }
}

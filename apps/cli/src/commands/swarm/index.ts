/**
 * `colony swarm`: seed 004's swarm_run from a file, and the status or result of a run.
 * Each sub-command loads lazily.
 */
import { defineCommand } from 'citty';

export default defineCommand({
  meta: { name: 'swarm', description: 'Swarm runs: run tasks in parallel worktrees from a file, status, collect.' },
  subCommands: {
    run: () => import('./run').then((m) => m.default),
    status: () => import('./status').then((m) => m.default),
    collect: () => import('./collect').then((m) => m.default),
  },
});

/**
 * `colony workspace`: git worktrees as workspaces (seed 004): fork, list, merge,
 * destroy, and clean (recover interrupted swarm runs). Each sub-command loads lazily.
 */
import { defineCommand } from 'citty';

export default defineCommand({
  meta: { name: 'workspace', description: 'Workspaces (git worktrees): fork, list, merge, destroy, clean.' },
  subCommands: {
    fork: () => import('./fork').then((m) => m.default),
    list: () => import('./list').then((m) => m.default),
    merge: () => import('./merge').then((m) => m.default),
    destroy: () => import('./destroy').then((m) => m.default),
    clean: () => import('./clean').then((m) => m.default),
  },
});

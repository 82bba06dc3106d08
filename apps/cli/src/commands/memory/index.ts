/**
 * `colony memory`: upkeep of shared memory.
 */
import { defineCommand } from 'citty';

export default defineCommand({
  meta: { name: 'memory', description: 'Upkeep of shared memory (index: build search vectors).' },
  subCommands: {
    index: () => import('./index-vectors').then((m) => m.default),
  },
});

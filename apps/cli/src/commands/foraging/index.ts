/**
 * `colony foraging`: indexing example projects (food sources) under <repo>/examples/.
 */
import { defineCommand } from 'citty';

export default defineCommand({
  meta: { name: 'foraging', description: 'Index example projects under <repo>/examples/ (scan).' },
  subCommands: {
    scan: () => import('./scan').then((m) => m.default),
  },
});

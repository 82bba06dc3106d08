/**
 * `colony examples`: the indexed example projects (what `colony foraging scan` wrote).
 */
import { defineCommand } from 'citty';

export default defineCommand({
  meta: { name: 'examples', description: 'Indexed example projects under <repo>/examples/ (list).' },
  subCommands: {
    list: () => import('./list').then((m) => m.default),
  },
});

/**
 * `colony hook`: what IDEs run on their lifecycle events (registered by
 * `colony install`). Loads lazily.
 */
import { defineCommand } from 'citty';

export default defineCommand({
  meta: { name: 'hook', description: 'IDE hooks: run one for an event, with the IDE hook JSON on stdin.' },
  subCommands: {
    run: () => import('./run').then((m) => m.default),
  },
});

/**
 * `colony plan`: publish a multi-agent plan from a JSON or YAML file (CI, setup
 * scripts) and list published plans. Each sub-command loads lazily.
 */
import { defineCommand } from 'citty';

export default defineCommand({
  meta: { name: 'plan', description: 'Plans: publish one from a JSON/YAML file (or dry-run it), list plans.' },
  subCommands: {
    publish: () => import('./publish').then((m) => m.default),
    list: () => import('./list').then((m) => m.default),
  },
});

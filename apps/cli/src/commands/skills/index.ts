/**
 * `colony skills`: the skills runtime agents can invoke (seed 003: `.claude/skills`,
 * `.skills`, `~/.claude/skills`). Each sub-command loads lazily.
 */
import { defineCommand } from 'citty';

export default defineCommand({
  meta: { name: 'skills', description: 'Skills runtime agents can invoke (list, show).' },
  subCommands: {
    list: () => import('./list').then((m) => m.default),
    show: () => import('./show').then((m) => m.default),
  },
});

/**
 * `colony autopilot`: stateless advice for agent loops run by a scheduler.
 */
import { defineCommand } from 'citty';

export default defineCommand({
  meta: { name: 'autopilot', description: 'Stateless next-step advice for agent loops (tick).' },
  subCommands: {
    tick: () => import('./tick').then((m) => m.default),
  },
});

/**
 * `colony store`: the store as a whole: export it to colony-store JSON lines, import
 * such a file into a new store (docs/configuration.md, "Moving a store").
 */
import { defineCommand } from 'citty';

export default defineCommand({
  meta: { name: 'store', description: 'Export the store to JSON lines, or import such a file into a new store.' },
  subCommands: {
    export: () => import('./export').then((m) => m.default),
    import: () => import('./import').then((m) => m.default),
  },
});

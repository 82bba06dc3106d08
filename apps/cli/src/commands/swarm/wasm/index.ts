/** `colony swarm wasm`: the project's WASM tools without a model (run one). */
import { defineCommand } from 'citty';

export default defineCommand({
  meta: { name: 'wasm', description: "Run the project's sandboxed WASM tools without a model." },
  subCommands: {
    run: () => import('./run').then((m) => m.default),
  },
});

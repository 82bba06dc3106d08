import { defineConfig } from 'tsup';

export default defineConfig({
  entry: { index: 'src/index.ts', 'serve/index': 'src/serve/index.ts' },
  format: ['esm'],
  target: 'node20',
  dts: true,
  sourcemap: true,
  clean: true,
});

import { defineConfig } from 'tsup';

// Bundled like colony-mcp (commands split into lazily loaded chunks): `colony mcp` and
// hooks start as fast as the standalone server. Only the native SQLite binding and the
// lazily-required tokenizer stay outside the bundle.
export default defineConfig({
  entry: ['src/cli.ts'],
  format: ['esm'],
  target: 'node20',
  platform: 'node',
  sourcemap: true,
  clean: true,
  minify: true,
  splitting: true,
  noExternal: [/^(?!better-sqlite3|gpt-tokenizer)/],
  banner: {
    js: [
      "import { createRequire as __colonyRequire } from 'node:module';",
      "import { fileURLToPath as __colonyPath } from 'node:url';",
      'const require = __colonyRequire(import.meta.url);',
      'const __filename = __colonyPath(import.meta.url);',
      "const __dirname = __colonyPath(new URL('.', import.meta.url));",
    ].join(' '),
  },
});

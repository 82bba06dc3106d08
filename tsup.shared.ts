/**
 * The two build shapes of the workspace, shared by every package's tsup.config.ts.
 */
import { defineConfig, type Options } from 'tsup';

/** A library package: ESM with type declarations; dependencies stay external. */
export function libraryBuild(entry: Options['entry']) {
  return defineConfig({ entry, format: ['esm'], target: 'node20', dts: true, sourcemap: true, clean: true });
}

/**
 * An app: one minified self-contained bundle (lazily loaded parts split into chunks).
 * An IDE spawns these on every session, so start-up cost matters most here. Only the
 * native SQLite binding and the lazily-required tokenizer stay outside.
 */
export function appBundle(entry: string) {
  return defineConfig({
    entry: [entry],
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
}

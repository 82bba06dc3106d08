/**
 * The two build shapes of the workspace, shared by every package's tsup.config.ts.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { defineConfig, type Options } from 'tsup';

const ROOT = dirname(fileURLToPath(import.meta.url));

/** The module an app imports to get the MCP handshake computed at build time. */
export const HANDSHAKE_MODULE = 'virtual:colony-mcp-handshake';

type EsbuildPlugin = NonNullable<Options['esbuildPlugins']>[number];

/**
 * Resolves HANDSHAKE_MODULE to `mcpHandshake()` of the built @swarm/tools over the
 * built tool catalog (turbo builds it first): the tools/list answers and the SDK's
 * protocol versions, so a server answers its client's handshake without loading
 * them. Computed on every build from the catalog, so a new tool needs nothing here;
 * apps/mcp-server/test/handshake.test.ts proves the shipped answers equal the live ones.
 */
function mcpHandshakePlugin(): EsbuildPlugin {
  return {
    name: 'colony-mcp-handshake',
    setup(build) {
      build.onResolve({ filter: /^virtual:colony-mcp-handshake$/ }, (args) => ({
        path: args.path,
        namespace: 'colony-mcp-handshake',
      }));
      build.onLoad({ filter: /.*/, namespace: 'colony-mcp-handshake' }, async () => {
        const dist = (file: string) => pathToFileURL(join(ROOT, 'packages/tools/dist', file)).href;
        const tools = await import(dist('index.js'));
        const mcp = await import(dist('mcp/index.js'));
        const registry = new tools.ToolRegistry(tools.COLONY_TOOLS, {}, { now: () => 0 });
        const handshake = await mcp.mcpHandshake(registry);
        return { contents: `export default ${JSON.stringify(handshake)};`, loader: 'js' };
      });
    },
  };
}

/**
 * The MCP SDK's Server imports its Ajv validator (ajv, ajv-formats and the draft-07
 * meta-schema: ~170 KB to compile and ~15 ms to set up) only as the default for
 * `jsonSchemaValidator`, which colony always passes (it never elicits; see
 * packages/tools/src/mcp/_server.ts). In the app bundles the Server's import resolves
 * to a stub that refuses to be built, so the first tool call of a server does not load
 * Ajv. The SDK's Client keeps the real one.
 */
function noServerAjvPlugin(): EsbuildPlugin {
  return {
    name: 'colony-no-server-ajv',
    setup(build) {
      build.onResolve({ filter: /\/validation\/ajv-provider\.js$/ }, (args) =>
        /@modelcontextprotocol[\\/]sdk[\\/]dist[\\/]esm[\\/]server[\\/]index\.js$/.test(args.importer)
          ? { path: 'server-ajv', namespace: 'colony-no-server-ajv' }
          : undefined,
      );
      build.onLoad({ filter: /.*/, namespace: 'colony-no-server-ajv' }, () => ({
        contents:
          "export class AjvJsonSchemaValidator { constructor() { throw new Error('colony bundles no Ajv for the MCP server: pass jsonSchemaValidator'); } }",
        loader: 'js',
      }));
    },
  };
}

/** A library package: ESM with type declarations; dependencies stay external. */
export function libraryBuild(entry: Options['entry']) {
  return defineConfig({ entry, format: ['esm'], target: 'node20', dts: true, sourcemap: true, clean: true });
}

/**
 * An app: one minified self-contained bundle (lazily loaded parts split into chunks).
 * An IDE spawns these on every session, so start-up cost matters most here. Only the
 * native SQLite binding and the lazily-required tokenizer stay outside, and ink's optional
 * react-devtools-core (imported only when DEV=true, never installed). The libraries
 * @swarm/coordination loads with `createRequire` on first use (`_lazy-deps.ts`: YAML,
 * TOML, globs, RE2, gitignore, diff3) are outside too, since esbuild cannot follow that
 * call: each app lists them as dependencies (test/app-dependencies.test.ts).
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
    noExternal: [/^(?!better-sqlite3|gpt-tokenizer|react-devtools-core)/],
    external: ['react-devtools-core'],
    esbuildPlugins: [mcpHandshakePlugin(), noServerAjvPlugin()],
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

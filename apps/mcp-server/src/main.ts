#!/usr/bin/env node
/**
 * colony-mcp: the standalone MCP server binary registered in IDEs. Thin: argv ->
 * serveColony. Kept apart from the CLI so an IDE's server starts without loading any
 * command code. Over stdio nothing else loads before the handshake is done: it is
 * answered from build-time data, and colony opens in the idle time after it (or on the
 * first tool call with COLONY_MCP_WARM=0).
 */
import { parseArgs } from 'node:util';
import handshake from 'virtual:colony-mcp-handshake';
import { databaseUrlOf, parseServeFlags, serveColony } from '@swarm/core/serve';

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      db: { type: 'string' },
      home: { type: 'string' },
      toolset: { type: 'string', default: 'all' },
      http: { type: 'boolean', default: false },
      port: { type: 'string' },
      token: { type: 'string' },
      'allow-write': { type: 'boolean', default: false },
      'allow-exec': { type: 'boolean', default: false },
      root: { type: 'string', multiple: true },
      arbiter: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
    strict: true,
  });
  if (values.help) {
    process.stdout.write(
      'usage: colony-mcp [--db PATH|postgres://URL] [--home DIR] [--toolset core|all|framework|runtime] [--allow-write] [--allow-exec] [--arbiter NAME] [--root DIR]... [--http [--port N] [--token T]]\n',
    );
    return;
  }
  const flags = parseServeFlags(values);
  const open = async () => {
    const { connectColony } = await import('@swarm/core');
    // --db is a SQLite file or a postgres:// URL; without --db or --home, $COLONY_DATABASE_URL.
    const db = databaseUrlOf(values) ?? values.db;
    return connectColony({
      ...(values.home ? { home: values.home } : {}),
      ...(db ? { dbPath: db } : {}),
      ...(values['allow-write'] ? { allowWrite: true } : {}),
      ...(flags.allowExec ? { allowExec: true } : {}),
      ...(values.root?.length ? { roots: values.root } : {}),
      ...(values.arbiter ? { arbiter: values.arbiter } : {}),
      onWarning: (message) => process.stderr.write(`colony: warning: ${message}\n`),
      onInternalError: (error, tool) => process.stderr.write(`colony: internal error in ${tool}: ${describe(error)}\n`),
    });
  };
  const handle = await serveColony({ colony: open, handshake, ...flags });
  const stop = () => void handle.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  await handle.done;
}

/** An error and its causes (a driver's error wrapped by the query builder), one line. */
function describe(error: unknown, depth = 0): string {
  const cause = error instanceof Error ? error.cause : undefined;
  return cause === undefined || depth >= 4 ? String(error) : `${String(error)} (cause: ${describe(cause, depth + 1)})`;
}

main().catch((error: unknown) => {
  process.stderr.write(`colony-mcp: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});

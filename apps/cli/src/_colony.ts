/**
 * @module colony
 * Flags every command shares (--db, --home), opening colony from them, and calling a
 * tool through the one registry. Commands never reach around `handleToolCall`, so
 * what the CLI prints is what an MCP client receives.
 */
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { parse } from 'node:path';
import { type Colony, connectColony, type OpenColonyOptions } from '@swarm/core';
import { databaseUrlOf } from '@swarm/core/serve';
import { debug } from './_debug';
import { CliError } from './_output';
import type { StoreFlags } from './_store-args';
import { storeChoice } from './_store-path';

export { type StoreFlags, storeArgs } from './_store-args';

const SOURCE = { 'db flag': '--db', 'home flag': '--home', COLONY_HOME: '$COLONY_HOME', default: 'the default home' };

/**
 * Opens colony for a command: on the SQLite file of --db / --home, or on the PostgreSQL
 * database `--db postgres://…` or `$COLONY_DATABASE_URL` names. A command run by hand
 * is the operator's choice of folder: its file tools may work anywhere (`operator`);
 * `colony mcp` passes false, so a model's repo_root is confined to the roots the server
 * allows.
 */
export function openFromArgs(args: StoreFlags, extra: OpenColonyOptions = {}, operator = true): Promise<Colony> {
  const url = databaseUrlOf(args);
  if (url) debug('opening the PostgreSQL store');
  else {
    const choice = storeChoice(args, process.env, homedir());
    debug(`opening store ${choice.dbPath} (from ${SOURCE[choice.source]})`);
  }
  return connectColony({
    ...(operator ? { roots: [parse(process.cwd()).root] } : {}),
    ...extra,
    ...(args.home ? { home: args.home } : {}),
    ...(url ? { dbPath: url } : args.db ? { dbPath: args.db } : {}),
    onWarning: (message) => process.stderr.write(`colony: warning: ${message}\n`),
  });
}

/**
 * For read commands: refuses, before opening anything, a store that does not exist
 * (a typo in --db must not create a database and its folders), naming the path and
 * where it came from.
 */
export function assertStoreExists(args: StoreFlags): void {
  if (databaseUrlOf(args)) return;
  const choice = storeChoice(args, process.env, homedir());
  if (choice.dbPath === ':memory:' || existsSync(choice.dbPath)) return;
  throw new CliError(
    `STORE_NOT_FOUND: no colony store at ${choice.dbPath} (from ${SOURCE[choice.source]}); check the path, or run a command that writes to create it`,
  );
}

/** withColony for a command that only reads: a missing store is STORE_NOT_FOUND, not created. */
export function withExistingColony<T>(
  args: StoreFlags,
  fn: (colony: Colony) => Promise<T> | T,
  options: OpenColonyOptions = {},
): Promise<T> {
  assertStoreExists(args);
  return withColony(args, fn, options);
}

/** Opens colony for one command and closes it afterwards, whatever happens. */
export async function withColony<T>(
  args: StoreFlags,
  fn: (colony: Colony) => Promise<T> | T,
  options: OpenColonyOptions = {},
): Promise<T> {
  const colony = await openFromArgs(args, options);
  try {
    return await fn(colony);
  } finally {
    await colony.close();
  }
}

/**
 * Calls a tool and returns its value. A tool error becomes a CliError reading
 * `<CODE>: <message>`, which cli.ts prints as one line with exit code 1.
 */
export async function callTool<T>(colony: Colony, name: string, args: Record<string, unknown>): Promise<T> {
  const outcome = await colony.handleToolCall(name, args);
  if (!outcome.ok) throw new CliError(`${outcome.error.code}: ${outcome.error.error}`);
  return outcome.value as T;
}

/** Drops undefined entries, so omitted flags reach the tool as absent arguments. */
export function defined(args: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(args).filter(([, v]) => v !== undefined));
}

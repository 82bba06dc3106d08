/**
 * @module install/ide-spec
 * What colony needs to know of an IDE to register itself there: where its MCP server
 * list lives per scope and in which shape, and where its hooks live when it has hooks
 * colony's `hook run` understands. One file per IDE under `ides/`.
 */

export type InstallScope = 'user' | 'project';

/** Where to look: the user's home and environment, and the project root for project scope. */
export interface Where {
  readonly scope: InstallScope;
  readonly home: string;
  readonly env: NodeJS.ProcessEnv;
  readonly projectRoot: string;
}

/** An MCP server map inside a JSON config: `<key>.colony = fields(...)`. */
export interface JsonMcpLocation {
  readonly kind: 'json';
  readonly path: string;
  /** The object holding the servers by name: `mcpServers`, or OpenCode's `mcp`. */
  readonly key: string;
  /** Where the entry keeps its environment variables: `env`, or OpenCode's `environment`. */
  readonly envKey: string;
  /** The entry's fields colony owns, for a launcher `command args...`. */
  fields(command: string, args: readonly string[]): Record<string, unknown>;
  /** The command line an entry runs (for `colony doctor`). */
  argv(entry: Record<string, unknown>): string[];
}

/** Codex's `[mcp_servers.colony]` table in config.toml. */
export interface TomlMcpLocation {
  readonly kind: 'toml';
  readonly path: string;
}

export type McpLocation = JsonMcpLocation | TomlMcpLocation;

/** A JSON file with a `hooks` object shaped as Claude Code's (and Codex's hooks.json). */
export interface HooksLocation {
  readonly path: string;
  /** The matcher of colony's file-edit hooks: the IDE's editing tools. */
  readonly editMatcher: string;
}

export interface IdeLocations {
  readonly mcp: McpLocation;
  readonly hooks?: HooksLocation;
}

export interface IdeSpec {
  readonly id: string;
  readonly scopes: readonly InstallScope[];
  locate(where: Where): IdeLocations;
}

/** `command` and `args` as most IDEs spell a stdio server, read back for doctor. */
export function commandAndArgs(entry: Record<string, unknown>): string[] {
  const args = Array.isArray(entry.args) ? entry.args.map(String) : [];
  return typeof entry.command === 'string' ? [entry.command, ...args] : args;
}

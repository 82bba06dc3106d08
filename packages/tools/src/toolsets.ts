/**
 * @module toolsets
 * The names of the toolsets. No imports: serving flags are validated on the start-up
 * path of an MCP server, which loads nothing heavy before the first tool call.
 */

/**
 * `all`: the MCP contract tools (seed 002); `core`: its lean startup subset;
 * `framework`: the tool surfaces for other agent frameworks (seeds 000/001);
 * `runtime`: the tools that run shell commands on the host (seed 004: workspaces,
 * exec_parallel, swarm_run), listed only by a server started with `--allow-exec`.
 */
export type Toolset = 'core' | 'all' | 'framework' | 'runtime';
export const TOOLSETS: readonly Toolset[] = ['core', 'all', 'framework', 'runtime'];

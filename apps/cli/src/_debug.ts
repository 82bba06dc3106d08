/**
 * @module debug
 * Triage lines for hooks and the MCP server: on stderr (stdout belongs to the IDE),
 * only when `COLONY_DEBUG` is set (not `0`) or a command was given `--verbose`, which
 * sets it for the process and what it starts.
 */

export function debugEnabled(env: NodeJS.ProcessEnv = process.env): boolean {
  const value = env.COLONY_DEBUG;
  return value !== undefined && value !== '' && value !== '0';
}

export function debug(message: string): void {
  if (debugEnabled()) process.stderr.write(`colony: debug: ${message}\n`);
}

/** `--verbose`: debug lines on stderr (same as COLONY_DEBUG=1). */
export const verboseArg = {
  verbose: { type: 'boolean', description: 'Debug lines on stderr (same as COLONY_DEBUG=1)', default: false },
} as const;

export function applyVerbose(args: { verbose?: boolean }): void {
  if (args.verbose) process.env.COLONY_DEBUG = '1';
}

/**
 * Shared pieces of the runtime commands (`colony exec`, `colony workspace`, `colony
 * swarm`): they run commands on the host, so they open colony with exec allowed.
 */
import type { Colony } from '@swarm/core';
import { callTool, type StoreFlags, withColony } from '../_colony';

/** Calls a runtime tool with exec allowed (the CLI command is the user's consent). */
export function runtimeCall<T>(args: StoreFlags, tool: string, input: Record<string, unknown>): Promise<T> {
  return withColony(args, (colony) => callTool<T>(colony, tool, input), { allowExec: true });
}

/** Runs `fn` with a colony that allows exec, closing it afterwards. */
export function withExecColony<T>(args: StoreFlags, fn: (colony: Colony) => Promise<T>): Promise<T> {
  return withColony(args, fn, { allowExec: true });
}

/** `--repo-root`, default the current directory. */
export const repoRootArg = {
  'repo-root': { type: 'string', description: 'Repository (default: current directory)', valueHint: 'path' },
} as const;

/** Comma-separated values (`--workspace a,b`), trimmed, empty ones dropped. */
export function list(raw: string | undefined): string[] {
  return (raw ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

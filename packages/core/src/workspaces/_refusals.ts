/**
 * @module workspaces/refusals
 * Turns @swarm/worktree's expected refusals into colony's coded errors, in one place.
 */
import { ColonyError } from '@swarm/tools';
import { RepoError, SwarmSpecError } from '@swarm/worktree';

const EXEC_FLAG_MESSAGE =
  'runs shell commands on the host: start the server with --allow-exec (colony mcp --allow-exec), set COLONY_ALLOW_EXEC=1, or pass openColony({ allowExec: true })';

export function execNotAllowed(tool: string): ColonyError {
  return new ColonyError('EXEC_NOT_ALLOWED', `${tool} ${EXEC_FLAG_MESSAGE}`, { details: { flag: '--allow-exec' } });
}

/** Runs `fn`, mapping RepoError and SwarmSpecError to ColonyError; anything else passes through. */
export async function coded<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    throw toColonyError(error);
  }
}

export function toColonyError(error: unknown): unknown {
  if (error instanceof SwarmSpecError) {
    return new ColonyError('INVALID_PARAMETERS', error.message, { details: error.details });
  }
  if (error instanceof RepoError) {
    const code =
      error.reason === 'git_too_old'
        ? 'GIT_TOO_OLD'
        : error.reason === 'dirty_tree'
          ? 'DIRTY_TREE'
          : 'INVALID_PARAMETERS';
    return new ColonyError(code, error.message, { details: { reason: error.reason, ...error.details } });
  }
  return error;
}

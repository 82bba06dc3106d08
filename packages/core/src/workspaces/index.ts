/**
 * @module workspaces
 * The runtime tools' services (seed 004 on git worktrees): the workspace primitives,
 * exec_parallel and swarm runs, composed over @swarm/worktree and the store.
 */

export {
  createSwarmRunService,
  type RecoverReport,
  type SwarmRunService,
  type SwarmRunServiceOptions,
} from './swarm-run-service';
export { createWorkspaceBackend, type WorkspaceServiceOptions } from './workspace-service';

import type { Clock, RateLimitSettings } from '@swarm/coordination';
import { RateLimiter } from '@swarm/coordination';
import type { ColonyStore } from '@swarm/storage';
import type { WorkspaceBackend } from '@swarm/tools';
import type { SandboxPolicy } from '@swarm/worktree';
import { createSwarmRunService, type SwarmRunService } from './swarm-run-service';
import { createWorkspaceBackend } from './workspace-service';

export interface RuntimeServices {
  readonly workspaces: WorkspaceBackend;
  readonly swarmRuns: SwarmRunService;
}

/**
 * The runtime tools' backends, sharing one rate limiter. On the first runtime call of
 * the process, interrupted runs are recovered (the "next start" recovery).
 */
export function createRuntimeServices(options: {
  readonly store: ColonyStore;
  readonly clock: Clock;
  readonly allowExec: boolean;
  readonly rateLimits: RateLimitSettings;
  readonly sandbox?: SandboxPolicy;
}): RuntimeServices {
  const limiter = new RateLimiter(options.clock, options.rateLimits);
  let recovered: Promise<void> | undefined;
  const beforeCall = () => {
    recovered ??= swarmRuns.recover().then(
      () => undefined,
      () => undefined,
    );
    return recovered;
  };
  const swarmRuns = createSwarmRunService({ ...options, limiter, beforeCall });
  const workspaces = createWorkspaceBackend({
    allowExec: options.allowExec,
    limiter,
    beforeCall,
    ...(options.sandbox ? { sandbox: options.sandbox } : {}),
  });
  return { workspaces, swarmRuns };
}

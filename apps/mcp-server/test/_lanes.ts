/**
 * Helpers for the lane suites: repository folders under the test's temp dir, and
 * joining a task thread by tool call (which registers the session and heartbeats it).
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

type Ok = (tool: string, args: Record<string, unknown>) => Promise<{ task_id?: unknown }>;

export function laneHelpers(ok: Ok, dir: () => string) {
  return {
    repoDir(name: string): string {
      const path = join(dir(), name);
      mkdirSync(path, { recursive: true });
      return path;
    },
    async thread(
      repo_root: string,
      branch: string,
      session_id: string,
      agent: string,
      title?: string,
    ): Promise<number> {
      const result = await ok('task_thread', { repo_root, branch, session_id, agent, ...(title ? { title } : {}) });
      return result.task_id as number;
    },
  };
}

/** How the swarm commands print a run's response and its exit status. */
import type { SwarmRunResult } from '@swarm/tools';
import { CliError } from '../../_output';

export function runLines(r: SwarmRunResult): string[] {
  return [
    `${r.swarm_id}: ${r.summary.succeeded}/${r.summary.total_tasks} tasks succeeded in ${(r.summary.total_elapsed_ms / 1000).toFixed(1)} s, ${r.summary.workers_destroyed} worktrees removed`,
    ...r.tasks.map(
      (t) =>
        `  ${t.success ? 'ok  ' : t.skipped ? 'skip' : 'FAIL'} ${t.name}  exit ${t.exit_code ?? '-'}${t.timed_out ? ' (timed out)' : ''}  ${t.commits} commit(s)  ${t.branch}`,
    ),
    ...(r.merge
      ? [
          `merge (${r.merge.strategy}) into ${r.merge.target_workspace}:`,
          ...r.merge.results.map((m) =>
            m.success
              ? `  merged ${m.source}: ${m.commits_applied} commit(s)`
              : `  NOT merged ${m.source}: ${m.conflicts.length ? `conflicts in ${m.conflicts.join(', ')}` : m.error}`,
          ),
        ]
      : []),
  ];
}

/** Exit 1 when a task or a merge failed. */
export function failIfAnyFailed(r: SwarmRunResult): void {
  const failedMerges = r.merge?.results.filter((m) => !m.success).length ?? 0;
  if (r.summary.failed > 0 || failedMerges > 0) {
    throw new CliError(`${r.summary.failed} task(s) failed, ${failedMerges} merge(s) failed`);
  }
}

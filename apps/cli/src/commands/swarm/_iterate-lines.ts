/** How `colony swarm iterate` prints its events without `--json`: one line each. */
import type { IterationEvent } from '@swarm/core/runtime';

export function eventLine(e: IterationEvent): string {
  switch (e.event) {
    case 'plan': {
      const c = e.config;
      const step = c.step ? `command ${c.step.command ?? c.step.argv?.join(' ')}` : `agent ${c.agent}`;
      const target = c.progress.target !== undefined ? `, target ${c.progress.target}` : '';
      return [
        `plan ${c.name} (${e.path}): up to ${e.max_iterations} iterations of ${step}`,
        `  probe: ${c.probe.command ?? c.probe.argv?.join(' ')} (score: ${c.probe.parse}${c.probe.field ? ` ${c.probe.field}` : ''})`,
        `  stop: ${c.progress.direction} is better, no progress after ${c.progress.patience}${target}`,
      ].join('\n');
    }
    case 'start':
      return `run ${e.run_id} (${e.name}): from iteration ${e.first_iteration}, at most ${e.max_iterations}`;
    case 'iteration':
      return `iteration ${e.iteration}: exit ${e.exit_code ?? '-'}, score ${e.score ?? 'none'}${e.improved ? ' (improved)' : ''}, best ${e.best_score ?? 'none'}`;
    case 'done':
      return `run ${e.run_id} stopped: ${e.reason} after ${e.iterations} iterations, best ${e.best_score ?? 'none'}${e.detail ? ` (${e.detail})` : ''}`;
  }
}

/**
 * Shared pieces of `colony swarm workflow`: the run-id argument, printing a run (one
 * line per stage), and the exit code a finished command reports (a failed or cancelled
 * run exits 1; completed and awaiting approval exit 0).
 */
import type { WorkflowRunView } from '@swarm/core/runtime';
import { printJson, printLines } from '../../../_output';

export const runIdArg = { 'run-id': { type: 'positional', description: 'Workflow run id', required: true } } as const;
export const stageArg = { stage: { type: 'string', description: 'Stage name', valueHint: 'name' } } as const;

export const print = (line: string) => process.stdout.write(`${line}\n`);

export function runLine(run: WorkflowRunView): string {
  const done = run.stages.filter((s) => s.state === 'completed').length;
  const error = run.error ? `: ${run.error}` : '';
  return `${run.run_id}  ${run.name}  ${run.state}  ${done}/${run.stages.length} stages${error}`;
}

export function stageLines(run: WorkflowRunView, outputs: boolean): string[] {
  return run.stages.flatMap((s) => {
    const exit = s.exit_code !== null ? ` exit ${s.exit_code}` : '';
    const tries = s.attempts > 1 ? ` (attempt ${s.attempts})` : '';
    const head = `  ${s.name}  ${s.type}  ${s.state}${exit}${tries}`;
    if (!outputs || !s.output) return [head];
    return [head, ...s.output.split('\n').map((l) => `    ${l}`)];
  });
}

/** Prints the run as it ended (JSON or lines) and sets the exit code. */
export function report(run: WorkflowRunView, json: boolean | undefined): void {
  if (json) printJson(run);
  else printLines([runLine(run), ...stageLines(run, false)]);
  if (run.state === 'failed' || run.state === 'cancelled' || run.state === 'interrupted') process.exitCode = 1;
}

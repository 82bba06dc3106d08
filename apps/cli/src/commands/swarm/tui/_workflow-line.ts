/**
 * @module swarm/tui/workflow-line
 * A workflow run as the dashboard's Ctrl+W overlay shows it: id, workflow name, run
 * state, the current stage (running, else awaiting approval, else the first not yet
 * finished; none once the run ended) and the stages awaiting the operator's approval.
 */
import type { WorkflowRunView } from '@swarm/core/runtime';
import type { WorkflowLine } from './_model';

const UNFINISHED = ['running', 'awaiting_approval', 'pending'];

export function workflowLine(run: WorkflowRunView): WorkflowLine {
  const current = UNFINISHED.map((state) => run.stages.find((s) => s.state === state)).find((s) => s);
  return {
    run_id: run.run_id,
    name: run.name,
    state: run.state,
    stage: current?.name ?? null,
    awaiting: run.stages.filter((s) => s.state === 'awaiting_approval').map((s) => s.name),
  };
}

/** One overlay line: `<id>  <name>  <state>  stage <stage>  awaiting approval: <stages>`. */
export function formatWorkflowLine(w: WorkflowLine): string {
  const stage = w.stage ? `  stage ${w.stage}` : '';
  const awaiting = w.awaiting.length ? `  awaiting approval: ${w.awaiting.join(', ')}` : '';
  return `${w.run_id}  ${w.name}  ${w.state}${stage}${awaiting}`;
}

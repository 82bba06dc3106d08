/**
 * @module swarm/tui/overlay
 * The overlays that replace the agent panels while open: the selected agent's log (`l`),
 * the events (`e`: state changes the dashboard saw), the task list (Ctrl+T: the
 * repository's plan sub-tasks), and the workflow panel (Ctrl+W: the repository's
 * workflow runs with their state, current stage and the stages awaiting approval).
 */
import { Box, Text } from 'ink';
import { createElement as h, type ReactElement } from 'react';
import type { Overlay } from './_keys';
import { type Snapshot, shortLine } from './_model';
import { formatWorkflowLine } from './_workflow-line';

export interface OverlayProps {
  readonly overlay: Overlay;
  readonly snapshot: Snapshot;
  readonly selected: number;
  readonly rows: number;
}

export function OverlayPanel({ overlay, snapshot, selected, rows }: OverlayProps): ReactElement {
  const [title, lines] = content(overlay, snapshot, selected);
  return h(
    Box,
    { flexDirection: 'column', borderStyle: 'double', paddingX: 1 },
    h(Text, { bold: true }, `${title}  (Esc or the same key closes)`),
    ...lines.slice(-rows).map((line, i) => h(Text, { key: `${i}`, wrap: 'truncate-end' }, line)),
  );
}

function content(overlay: Overlay, s: Snapshot, selected: number): [string, string[]] {
  const agent = s.agents[selected];
  switch (overlay) {
    case 'log':
      return [`Log: ${agent?.name ?? '-'}`, agent?.log.length ? agent.log.map(shortLine) : ['(no log yet)']];
    case 'events':
      return ['Events', s.events.length ? s.events.map((e) => `${e.at} ${e.text}`) : ['(no events yet)']];
    case 'tasks':
      return [
        'Tasks (plan sub-tasks)',
        s.tasks.length
          ? s.tasks.map((t) => `${t.plan_slug}#${t.subtask_index}  ${t.status.padEnd(9)} ${t.title}`)
          : ['(no active plan sub-tasks)'],
      ];
    case 'workflows':
      return [
        'Workflows (runs of this repository)',
        s.workflows.length
          ? s.workflows.map(formatWorkflowLine)
          : ['(no workflow runs: colony swarm workflow run <name>)'],
      ];
  }
}

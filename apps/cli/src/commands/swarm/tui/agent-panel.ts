/**
 * @module swarm/tui/agent-panel
 * One agent's panel (seed 003's Quick Start: name and state, session sequence number,
 * live log output): `> 1 ● backend  Running  seq 2`, then the last log lines. The
 * selected panel is marked `>` and drawn in cyan.
 */
import { Box, Text } from 'ink';
import { createElement as h, type ReactElement } from 'react';
import { type AgentView, shortLine, stateIcon } from './_model';

export interface AgentPanelProps {
  readonly agent: AgentView;
  readonly index: number;
  readonly selected: boolean;
  /** How many log lines the panel shows. */
  readonly lines: number;
}

export function AgentPanel({ agent, index, selected, lines }: AgentPanelProps): ReactElement {
  const reason = agent.state === 'Stopped' && agent.stop_reason ? `  (${agent.stop_reason})` : '';
  const title = `${selected ? '>' : ' '} ${index + 1} ${stateIcon(agent.state)} ${agent.name}  ${agent.state}  seq ${agent.session_seq}${reason}`;
  const log = agent.log.slice(-lines);
  return h(
    Box,
    { flexDirection: 'column', borderStyle: 'round', borderColor: selected ? 'cyan' : 'gray', paddingX: 1 },
    h(Text, { bold: selected, wrap: 'truncate-end' }, title),
    ...(log.length === 0
      ? [h(Text, { key: 'none', dimColor: true }, '(no log yet)')]
      : log.map((line, i) => h(Text, { key: `${i}`, dimColor: true, wrap: 'truncate-end' }, shortLine(line)))),
  );
}

/**
 * @module swarm/tui/header
 * The status line: the session id (seed 003's TuiApp.session_id), whether its runner is
 * alive, and the last notice (a send's recipients, a stop's result, an error).
 */
import { Box, Text } from 'ink';
import { createElement as h, type ReactElement } from 'react';
import type { SessionView } from './_model';

export function Header({
  session,
  notice,
}: {
  readonly session: SessionView | null;
  readonly notice: string;
}): ReactElement {
  const state = session
    ? `session ${session.id} ${session.active ? `active (pid ${session.pid})` : 'not running'}`
    : 'no session';
  return h(
    Box,
    { justifyContent: 'space-between' },
    h(Text, { bold: true }, `colony swarm · ${state}`),
    h(Text, { color: notice.startsWith('error') ? 'red' : 'green', wrap: 'truncate-end' }, notice),
  );
}

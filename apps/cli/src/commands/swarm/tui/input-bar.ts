/**
 * @module swarm/tui/input-bar
 * The always-visible bottom bar (seed 003's TUI page): the key help while closed, the
 * line being typed after `:` (send/broadcast/stop, or a message to the selected agent).
 */
import { Box, Text } from 'ink';
import { createElement as h, type ReactElement } from 'react';

const HELP =
  ': message/send/broadcast/stop  Tab ↑↓ 1-9 select  l log  e events  ^T tasks  ^W workflows  q detach  ^C stop';

export function InputBar({ input }: { readonly input: string | null }): ReactElement {
  return h(
    Box,
    { borderStyle: 'single', paddingX: 1 },
    input === null ? h(Text, { dimColor: true, wrap: 'truncate-end' }, HELP) : h(Text, null, `: ${input}█`),
  );
}

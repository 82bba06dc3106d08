/**
 * @module swarm/tui/dashboard
 * The dashboard: a header, one panel per agent (or the open overlay), the input bar.
 * Data comes from a snapshot store (coalesced, at most 10 updates a second); what the
 * keys do is `_keys.ts` and `_ui-state.ts`; what the input bar runs is `_command.ts`
 * through `actions` (core's sendToAgents and stopSwarm in the real thing).
 */
import { Box, useApp, useInput } from 'ink';
import { createElement as h, type ReactElement, useState, useSyncExternalStore } from 'react';
import type { StopMode } from './_command';
import { keyAction } from './_keys';
import type { SnapshotStore } from './_store';
import { INITIAL_UI, reduceUi, type UiAction } from './_ui-state';
import { AgentPanel } from './agent-panel';
import { Header } from './header';
import { InputBar } from './input-bar';
import { OverlayPanel } from './overlay';
import { useInputBar } from './use-input-bar';

export interface DashboardActions {
  /** Sends to one agent, or to all (`to` null); resolves with the notice to show. */
  send(to: string | null, body: string, urgent: boolean): Promise<string>;
  /** Stops the session; resolves with the notice to show. */
  stop(mode: StopMode): Promise<string>;
}

export type ExitReason = 'detach' | 'stop';

export interface DashboardProps {
  readonly store: Pick<SnapshotStore, 'current' | 'subscribe'>;
  readonly actions: DashboardActions;
  readonly rows: number;
  readonly onExit: (reason: ExitReason, notice: string) => void;
}

export function Dashboard({ store, actions, rows, onExit }: DashboardProps): ReactElement {
  const snapshot = useSyncExternalStore(store.subscribe, store.current);
  const [ui, setUi] = useState(INITIAL_UI);
  const app = useApp();
  const count = snapshot.agents.length;
  const dispatch = (action: UiAction) => setUi((s) => reduceUi(s, action, count));
  const leave = (reason: ExitReason, notice: string) => {
    onExit(reason, notice);
    app.exit();
  };
  const stop = (mode: StopMode) => {
    dispatch({ type: 'notice', notice: `stopping session (${mode})…` });
    actions.stop(mode).then(
      (notice) => leave('stop', notice),
      (error: Error) => dispatch({ type: 'notice', notice: `error: ${error.message}` }),
    );
  };
  const inputKey = useInputBar({ ui, dispatch, actions, stop, selected: snapshot.agents[ui.selected]?.name ?? null });
  useInput((input, key) => {
    if (ui.input !== null && !(key.ctrl && input === 'c')) return inputKey(input, key);
    const action = keyAction(input, key);
    if (action?.type === 'detach') leave('detach', '');
    else if (action?.type === 'stop') stop('merge');
    else if (action) dispatch(action);
  });
  const body = rows - 6;
  const lines = Math.max(1, Math.min(5, Math.floor(body / Math.max(1, count)) - 3));
  return h(
    Box,
    { flexDirection: 'column' },
    h(Header, { session: snapshot.session, notice: ui.notice }),
    ui.overlay
      ? h(OverlayPanel, { overlay: ui.overlay, snapshot, selected: ui.selected, rows: Math.max(1, body - 3) })
      : h(
          Box,
          { flexDirection: 'column' },
          ...snapshot.agents.map((agent, index) =>
            h(AgentPanel, { key: agent.name, agent, index, selected: index === ui.selected, lines }),
          ),
        ),
    h(InputBar, { input: ui.input }),
  );
}

/**
 * @module swarm/tui/dashboard
 * The dashboard: a header, one panel per agent (or the open overlay), the input bar.
 * Data comes from a snapshot store (coalesced, at most 10 updates a second); what the
 * keys do is `_keys.ts` and `_ui-state.ts`; what the input bar runs is `_command.ts`
 * through `actions` (core's sendToAgents and stopSwarm in the real thing).
 */
import { Box, useApp, useInput } from 'ink';
import { createElement as h, type ReactElement, useRef, useState, useSyncExternalStore } from 'react';
import type { DashboardActions, StopMode } from './_command';
import { keyAction } from './_keys';
import type { SnapshotStore } from './_store';
import { INITIAL_UI, reduceUi, type UiAction } from './_ui-state';
import { AgentPanel } from './agent-panel';
import { Header } from './header';
import { InputBar } from './input-bar';
import { OverlayPanel } from './overlay';
import { useInputBar } from './use-input-bar';

export type { DashboardActions } from './_command';

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
  // The key handler decides on this, not on the rendered state: ink re-subscribes it only
  // after a render is drawn, and keys typed fast arrive before that (`:` then `hello`).
  const latest = useRef({ ui, names: [] as string[] });
  latest.current.names = snapshot.agents.map((a) => a.name);
  const dispatch = (action: UiAction) => {
    latest.current.ui = reduceUi(latest.current.ui, action, latest.current.names.length);
    setUi(latest.current.ui);
  };
  const current = () => ({
    ui: latest.current.ui,
    selected: latest.current.names[latest.current.ui.selected] ?? null,
  });
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
  const inputKey = useInputBar({ latest: current, dispatch, actions, stop });
  useInput((input, key) => {
    const open = latest.current.ui.input !== null;
    if (open && !(key.ctrl && input === 'c')) return inputKey(input, key);
    const action = keyAction(input, key);
    if (action?.type === 'detach') leave('detach', '');
    else if (action?.type === 'stop') stop('merge');
    else if (action) dispatch(action);
  });
  const body = rows - 6;
  const lines = Math.max(1, Math.min(5, Math.floor(body / Math.max(1, snapshot.agents.length)) - 3));
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

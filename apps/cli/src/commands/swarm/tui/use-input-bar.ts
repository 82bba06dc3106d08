/**
 * @module swarm/tui/use-input-bar
 * Keys while the input bar is open: text is typed, Backspace erases, Esc closes, Enter
 * runs the line (`_command.ts`): a send shows its recipients, a stop stops the session.
 */
import type { Key } from 'ink';
import { type DashboardActions, parseCommand, type StopMode } from './_command';
import type { UiAction, UiState } from './_ui-state';

export interface InputBarContext {
  /** The latest render's state and selected agent (read when a key arrives). */
  readonly latest: () => { readonly ui: UiState; readonly selected: string | null };
  readonly dispatch: (action: UiAction) => void;
  readonly actions: DashboardActions;
  readonly stop: (mode: StopMode) => void;
}

export function useInputBar(c: InputBarContext): (input: string, key: Key) => void {
  const submit = (line: string) => {
    const command = parseCommand(line, c.latest().selected);
    if (command.kind === 'none') return c.dispatch({ type: 'close' });
    if (command.kind === 'error') return c.dispatch({ type: 'submitted', notice: `error: ${command.message}` });
    if (command.kind === 'stop') {
      c.dispatch({ type: 'close' });
      return c.stop(command.mode);
    }
    c.dispatch({ type: 'submitted', notice: 'sending…' });
    c.actions.send(command.to, command.body, command.urgent).then(
      (notice) => c.dispatch({ type: 'notice', notice }),
      (error: Error) => c.dispatch({ type: 'notice', notice: `error: ${error.message}` }),
    );
  };
  return (input, key) => {
    if (key.return) return submit(c.latest().ui.input ?? '');
    if (key.escape) return c.dispatch({ type: 'close' });
    if (key.backspace || key.delete) return c.dispatch({ type: 'erase' });
    if (input && !key.ctrl && !key.meta && !key.tab) c.dispatch({ type: 'type', text: input });
  };
}

/**
 * @module swarm/tui/ui-state
 * The dashboard's own state (seed 003's TuiApp minus the data): the selected agent, the
 * open overlay, the input bar (null = closed) and a one-line notice. A pure reducer, so
 * the key sets are testable without a terminal.
 */
import type { KeyAction, Overlay } from './_keys';

export interface UiState {
  readonly selected: number;
  readonly overlay: Overlay | null;
  /** The input bar's text while it is open; null while closed. */
  readonly input: string | null;
  readonly notice: string;
}

export const INITIAL_UI: UiState = { selected: 0, overlay: null, input: null, notice: '' };

export type UiAction =
  | KeyAction
  | { readonly type: 'type'; readonly text: string }
  | { readonly type: 'erase' }
  | { readonly type: 'submitted'; readonly notice: string }
  | { readonly type: 'notice'; readonly notice: string };

/** `count` is the number of agents (selection wraps; a jump past the last is ignored). */
export function reduceUi(state: UiState, action: UiAction, count: number): UiState {
  switch (action.type) {
    case 'select':
      return count === 0 ? state : { ...state, selected: (state.selected + action.delta + count) % count };
    case 'jump':
      return action.index < count ? { ...state, selected: action.index } : state;
    case 'overlay':
      return { ...state, overlay: state.overlay === action.overlay ? null : action.overlay };
    case 'close':
      return { ...state, overlay: null, input: null };
    case 'input':
      return { ...state, input: '' };
    case 'type':
      return { ...state, input: (state.input ?? '') + action.text };
    case 'erase':
      return { ...state, input: (state.input ?? '').slice(0, -1) };
    case 'submitted':
      return { ...state, input: null, notice: action.notice };
    case 'notice':
      return { ...state, notice: action.notice };
    default:
      return state;
  }
}

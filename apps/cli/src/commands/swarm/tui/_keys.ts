/**
 * @module swarm/tui/keys
 * Seed 003's two key sets, both honoured (runtime-inventory 1.28 #3), mapped to actions.
 * Quick Start: Tab / Shift+Tab cycle panels, 1-9 jump, `l` log overlay, `e` event
 * overlay, `q` quit the TUI while the session keeps running, `:` input bar. TUI page:
 * Up / Down select, Ctrl+T task list, Ctrl+W workflow panel, Ctrl+I iteration panel,
 * `q` / Ctrl+C quit. Decisions: `q` detaches, Ctrl+C stops the session with the default
 * mode (merge). A terminal sends Ctrl+I as Tab, so it reaches here as Tab and cycles:
 * there is no iteration overlay (`colony swarm iterate` reports its runs itself).
 */

export type Overlay = 'log' | 'events' | 'tasks' | 'workflows';

export type KeyAction =
  | { readonly type: 'select'; readonly delta: 1 | -1 }
  | { readonly type: 'jump'; readonly index: number }
  | { readonly type: 'overlay'; readonly overlay: Overlay }
  | { readonly type: 'close' }
  | { readonly type: 'input' }
  | { readonly type: 'detach' }
  | { readonly type: 'stop' };

/** The fields of ink's `Key` this reads. */
export interface KeyLike {
  readonly ctrl?: boolean;
  readonly shift?: boolean;
  readonly tab?: boolean;
  readonly upArrow?: boolean;
  readonly downArrow?: boolean;
  readonly escape?: boolean;
}

const CTRL_OVERLAYS: Record<string, Overlay> = { t: 'tasks', w: 'workflows' };
const PLAIN: Record<string, KeyAction> = {
  l: { type: 'overlay', overlay: 'log' },
  e: { type: 'overlay', overlay: 'events' },
  q: { type: 'detach' },
  ':': { type: 'input' },
};

/** The action of a key press outside the input bar, or null for a key with none. */
export function keyAction(input: string, key: KeyLike): KeyAction | null {
  if (key.ctrl) {
    if (input === 'c') return { type: 'stop' };
    const overlay = CTRL_OVERLAYS[input];
    return overlay ? { type: 'overlay', overlay } : null;
  }
  if (key.tab) return { type: 'select', delta: key.shift ? -1 : 1 };
  if (key.upArrow) return { type: 'select', delta: -1 };
  if (key.downArrow) return { type: 'select', delta: 1 };
  if (key.escape) return { type: 'close' };
  if (/^[1-9]$/.test(input)) return { type: 'jump', index: Number(input) - 1 };
  return PLAIN[input] ?? null;
}

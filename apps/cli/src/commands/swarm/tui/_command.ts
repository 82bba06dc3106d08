/**
 * @module swarm/tui/command
 * The input bar's line, parsed: `send <agent> <message>`, `broadcast <message>` (either
 * with `--urgent`), `stop [--merge|--squash|--discard]`, and any other text is a message
 * to the selected agent. The words match `colony swarm send|broadcast|stop`.
 */
/** `colony swarm stop`'s modes (merge is the default). */
export type StopMode = 'merge' | 'squash' | 'discard';

export type Command =
  | { readonly kind: 'send'; readonly to: string | null; readonly body: string; readonly urgent: boolean }
  | { readonly kind: 'stop'; readonly mode: StopMode }
  | { readonly kind: 'none' }
  | { readonly kind: 'error'; readonly message: string };

/** What the input bar and Ctrl+C run (core's sendToAgents and stopSwarm in the CLI). */
export interface DashboardActions {
  /** Sends to one agent, or to all (`to` null); resolves with the notice to show. */
  send(to: string | null, body: string, urgent: boolean): Promise<string>;
  /** Stops the session; resolves with the notice to show. */
  stop(mode: StopMode): Promise<string>;
}

const MODES: Record<string, StopMode> = { '--merge': 'merge', '--squash': 'squash', '--discard': 'discard' };

/** `selected` is the agent a plain message goes to (null without agents). */
export function parseCommand(line: string, selected: string | null): Command {
  const words = line.trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return { kind: 'none' };
  const urgent = words.includes('--urgent');
  const rest = words.filter((w) => w !== '--urgent');
  const [verb, ...args] = rest;
  if (verb === 'stop') {
    if (args.length > 1) return { kind: 'error', message: 'stop takes one of --merge, --squash, --discard' };
    const mode = args.length === 0 ? 'merge' : MODES[args[0]!];
    return mode ? { kind: 'stop', mode } : { kind: 'error', message: `stop: unknown mode ${args[0]}` };
  }
  if (verb === 'broadcast') {
    if (args.length === 0) return { kind: 'error', message: 'broadcast: give the message' };
    return { kind: 'send', to: null, body: args.join(' '), urgent };
  }
  if (verb === 'send') {
    if (args.length < 2) return { kind: 'error', message: 'send: give the agent and the message' };
    return { kind: 'send', to: args[0]!, body: args.slice(1).join(' '), urgent };
  }
  if (selected === null) return { kind: 'error', message: 'no agent selected' };
  return { kind: 'send', to: selected, body: rest.join(' '), urgent };
}

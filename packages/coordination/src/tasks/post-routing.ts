/**
 * @module tasks/post-routing
 * Reads a task_post for two misroutes the contract calls out: a post that names an
 * agent and asks it to act (that belongs in task_message), and a note or decision that
 * reads as future work (that belongs in task_propose, where it can be reinforced).
 * Small named rules, each testable alone.
 */
import type { TaskPostKind } from '@swarm/tools';

const AGENT_NAMES = /(?:^|[^\w/.-])@?(claude|codex|cursor|gemini|copilot|aider)\b/i;
const ASKS_FOR_ACTION =
  /\?|\b(can|could|would|will) you\b|\b(please|pls|need you to|needs you to|let me know|reply|respond|confirm|take over|pick up|review|re-?run|run|check|look at|handle|fix)\b/i;
const FUTURE_WORK =
  /\b(todo|to-do|follow[- ]?up|later|in the future|future work|next time|eventually|nice to have|would be nice|we could|we should also|should also|tech debt|technical debt|someday|out of scope for now|worth (?:doing|adding|extracting))\b/i;

/** The agent a post addresses when it names one and asks it to act; null otherwise. */
export function directedAgent(content: string): string | null {
  const named = AGENT_NAMES.exec(content);
  if (!named?.[1]) return null;
  return ASKS_FOR_ACTION.test(content) ? named[1].toLowerCase() : null;
}

/** True when a note or decision reads as work for later rather than state of now. */
export function looksLikeFutureWork(kind: TaskPostKind, content: string): boolean {
  return (kind === 'note' || kind === 'decision') && FUTURE_WORK.test(content);
}

/** A one-line, length-capped version of a post, for suggested arguments. */
export function compactLine(content: string, max = 280): string {
  const flat = content.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1).trimEnd()}…`;
}

/**
 * @module warm
 * What the first tool call of a fresh process pays on top of a warm one, paid in idle
 * time instead (`Colony.warm`, a stdio server's warm-up after the handshake): V8
 * compiling drizzle's select and update builders on their first query, the first
 * statements prepared, and zod's first run of the argument checks the tools share.
 * Nothing is written: the reads look for id 0 or '' (no row has it), the update is prepared
 * and not run, and the sample validation's result is dropped. Never throws: a store
 * that refuses is met again, and reported, by the call.
 */
import { getParticipant, getSession, getTask, prepareTouchSession, type Store } from '@swarm/storage';
import type { ToolRegistry } from '@swarm/tools';

/** The tool whose example input is validated: its arguments use the checks most tools share. */
const SAMPLE_TOOL = 'task_thread';

export function warmColony<B>(store: Store, registry: ToolRegistry<B>): void {
  try {
    if (store.closed) return;
    // task_post's reads (cached statements), then a drizzle select (getSession) for the rest.
    getTask(store, 0);
    getParticipant(store, 0, '');
    getSession(store, '');
    prepareTouchSession(store);
    const sample = registry.get(SAMPLE_TOOL);
    sample?.input.safeParse(sample.docs.example);
  } catch {
    // the first call meets the same refusal and reports it
  }
}

/**
 * Call helpers for stdio tests of one server: `ok` answers a tool's payload (throwing
 * with the error text otherwise), `refused` checks a call fails with a code and leaves
 * the database as `snapshot` saw it (awaited: store reads are promises on PostgreSQL),
 * and `serverClock` drives COLONY_CLOCK_FILE.
 */
import { expect } from 'vitest';
import { type Server, setClock } from './_harness';

// biome-ignore lint/suspicious/noExplicitAny: payloads are asserted field by field
type Payload = any;

export function calls(server: () => Server, snapshot: () => unknown) {
  const ok = async (tool: string, args: Record<string, unknown>): Promise<Payload> => {
    const result = await server().call(tool, args);
    if (result.isError) throw new Error(`${tool} failed: ${result.text}`);
    return result.payload;
  };
  const refused = async (tool: string, args: Record<string, unknown>, code: string): Promise<Payload> => {
    const before = await snapshot();
    const result = await server().call(tool, args);
    expect(result.isError, result.text).toBe(true);
    expect(result.payload).toMatchObject({ code, tool });
    expect(await snapshot()).toEqual(before);
    return result.payload;
  };
  return { ok, refused };
}

/** The clock of servers started with `clockFile`, starting at `start` (written now). */
export function serverClock(clockFile: string, start: number) {
  let current = start;
  setClock(clockFile, current);
  return {
    now: () => current,
    advance(ms: number) {
      current += ms;
      setClock(clockFile, current);
    },
  };
}

/**
 * The router's wake sources: the poll (SQLite's path, the default) and the LISTEN/NOTIFY
 * one (PostgreSQL's) over an in-process feed standing where @swarm/storage/pg's listener
 * plugs in (its real-server test: packages/storage/test/pg-wake.test.ts).
 */
import { describe, expect, it } from 'vitest';
import {
  AgentRegistry,
  memoryMailbox,
  notifyWakeSource,
  pollWakeSource,
  startRouter,
  type WakeFeed,
  type WakeSource,
} from '../src/index.js';

type Delivery = [string, boolean];
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function until(check: () => boolean, ms = 2000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${ms} ms`);
    await pause(5);
  }
}

/** A notify source over a feed the test drives; `closed` turns true when the source closes it. */
function fedSource(options: { safety_poll_ms?: number; fail?: boolean } = {}) {
  const mailbox = memoryMailbox(() => 0);
  const state = { feed: null as WakeFeed | null, closed: false, logs: [] as string[] };
  const source = notifyWakeSource({
    mailbox,
    agentOf: (sid) => ({ 'swarm-s1-ada': 'ada', 'swarm-s1-bo': 'bo' })[sid],
    task_id: 7,
    safety_poll_ms: options.safety_poll_ms ?? 60_000,
    log: (line) => void state.logs.push(line),
    subscribe: async (feed) => {
      if (options.fail) throw new Error('connection refused');
      state.feed = feed;
      return {
        close: async () => {
          state.closed = true;
        },
      };
    },
  });
  return { mailbox, source, state };
}

describe('pollWakeSource', () => {
  it('delivers unread mail from the inboxes each poll, urgent as urgent, and nothing once stopped', async () => {
    const mailbox = memoryMailbox(() => 0);
    const got: Delivery[] = [];
    const stop = pollWakeSource(mailbox, { poll_ms: 10 }).start((to, urgent) => void got.push([to, urgent]));
    await mailbox.send({ from: 'operator', to: 'ada', body: 'now', urgent: true });
    await mailbox.send({ from: 'operator', to: 'bo', body: 'later' });
    await until(() => got.length >= 2);
    expect(got.slice(0, 2)).toEqual([
      ['ada', true],
      ['bo', false],
    ]);
    await stop();
    const seen = got.length;
    await pause(40);
    expect(got.length).toBe(seen);
  });
});

describe('notifyWakeSource', () => {
  it('wakes the addressed agent at once: a blocking message on its thread interrupts, a question or a handoff wakes', async () => {
    const { source, state } = fedSource();
    const got: Delivery[] = [];
    const stop = source.start((to, urgent) => void got.push([to, urgent]));
    await until(() => state.feed !== null);
    const feed = state.feed as WakeFeed;
    feed.onWake({ kind: 'message', task_id: 7, to_session_id: 'swarm-s1-ada', urgency: 'blocking' });
    feed.onWake({ kind: 'message', task_id: 7, to_session_id: 'swarm-s1-bo', urgency: 'needs_reply' });
    feed.onWake({ kind: 'handoff', task_id: 7, to_session_id: 'swarm-s1-ada', urgency: null });
    feed.onWake({ kind: 'message', task_id: 7, to_session_id: 'swarm-s2-ada', urgency: 'blocking' });
    // Mail on another thread: the mailbox (the session's thread) would not show it, so it wakes no one.
    feed.onWake({ kind: 'message', task_id: 8, to_session_id: 'swarm-s1-bo', urgency: 'blocking' });
    feed.onWake({ kind: 'handoff', task_id: 8, to_session_id: 'swarm-s1-bo', urgency: null });
    expect(got).toEqual([
      ['ada', true],
      ['bo', false],
      ['ada', false],
      ['bo', false],
    ]);
    await stop();
    expect(state.closed).toBe(true);
  });

  it('re-reads the inboxes on every resync and on a notice on its thread addressed to no session', async () => {
    const { mailbox, source, state } = fedSource();
    const got: Delivery[] = [];
    const stop = source.start((to, urgent) => void got.push([to, urgent]));
    await until(() => state.feed !== null);
    await mailbox.send({ from: 'operator', to: 'bo', body: 'written while the listener was down', urgent: true });
    state.feed?.onResync();
    await until(() => got.length === 1);
    expect(got[0]).toEqual(['bo', true]);
    state.feed?.onWake({ kind: 'message', task_id: 99, to_session_id: null, urgency: 'blocking' });
    await pause(20);
    expect(got).toHaveLength(1);
    state.feed?.onWake({ kind: 'message', task_id: 7, to_session_id: null, urgency: 'blocking' });
    await until(() => got.length === 2);
    await stop();
  });

  it('keeps a slow safety poll, and falls back to it alone when listening fails', async () => {
    const { mailbox, source, state } = fedSource({ safety_poll_ms: 20, fail: true });
    const got: Delivery[] = [];
    const stop = source.start((to, urgent) => void got.push([to, urgent]));
    await mailbox.send({ from: 'operator', to: 'ada', body: 'fyi, no notice for this one' });
    await until(() => got.length > 0);
    expect(got[0]).toEqual(['ada', false]);
    expect(state.logs.some((l) => l.includes('polling only') && l.includes('connection refused'))).toBe(true);
    await stop();
  });
});

describe('startRouter', () => {
  it('starts the wake source it is given instead of the poll, and stops it with the router', async () => {
    const events: string[] = [];
    const wakes: WakeSource = {
      start: () => {
        events.push('start');
        return async () => void events.push('stop');
      },
    };
    const router = startRouter(
      new AgentRegistry(),
      memoryMailbox(() => 0),
      { wakes },
    );
    expect(events).toEqual(['start']);
    router.stop();
    await until(() => events.length === 2);
    expect(events).toEqual(['start', 'stop']);
  });
});

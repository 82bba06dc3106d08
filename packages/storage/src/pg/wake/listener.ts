/**
 * @module pg/wake/listener
 * `listenForWakes`: one dedicated node-postgres `Client` (never a pooled one: a LISTEN
 * belongs to its session) that LISTENs on `colony_wake` and hands each valid notice to
 * `onWake`. Invariants:
 * - Nothing is thrown into the connection's event loop: a malformed payload, a failing
 *   callback, a lost connection are reported to `onError` as values.
 * - Postgres drops a notification sent while nobody listens, so after EVERY (re)connect
 *   the listener calls `onResync` and the caller re-reads the store: that re-read, not
 *   the notification, is what makes nothing lost.
 * - A dropped connection is retried with bounded exponential backoff until `close()`,
 *   which leaves no timer and no socket behind.
 * - No message carries the password (`scrubSecret`).
 */
import type { Client, ClientConfig, Pool } from 'pg';
import { scrubSecret } from '../_url';
import { isPostgresUrl, loadDriver, PgStoreError } from '../open';
import { parseWakeNotice, WAKE_CHANNEL, type WakeNotice } from './payload';

/** The listener's `application_name` (pg_stat_activity shows who LISTENs). */
export const WAKE_APPLICATION = 'colony wake listener';

export type WakeProblemCode =
  | 'WAKE_PAYLOAD_INVALID'
  | 'WAKE_CONNECT_FAILED'
  | 'WAKE_CONNECTION_LOST'
  | 'WAKE_HANDLER_FAILED';

/** Something the listener survived, reported (never thrown). */
export interface WakeProblem {
  readonly code: WakeProblemCode;
  readonly message: string;
}

export interface ListenOptions {
  /** Called after every (re)connect, the first included: re-read the store now. */
  readonly onResync?: () => void | Promise<void>;
  readonly onError?: (problem: WakeProblem) => void;
  /** First retry delay (ms); doubles per failed attempt up to `max_backoff_ms`. Default 100. */
  readonly min_backoff_ms?: number;
  /** Default 5000. */
  readonly max_backoff_ms?: number;
}

export interface WakeListener {
  /** True while LISTENing. */
  readonly connected: boolean;
  /** How many times the listener has connected (1 after the first connect). */
  readonly connects: number;
  /** Stops listening: no reconnect, no timer, the client ended. */
  close(): Promise<void>;
}

/** LISTENs for colony's wake notices on a connection of its own, to `url` or to `pool`'s server. */
export async function listenForWakes(
  source: string | Pool,
  onWake: (notice: WakeNotice) => void | Promise<void>,
  options: ListenOptions = {},
): Promise<WakeListener> {
  if (typeof source === 'string' && !isPostgresUrl(source)) {
    throw new PgStoreError('PG_URL_INVALID', `not a PostgreSQL URL: ${scrubSecret(source, source)}`);
  }
  const pg = await loadDriver();
  const base: ClientConfig = typeof source === 'string' ? { connectionString: source } : { ...source.options };
  const config: ClientConfig = { ...base, application_name: WAKE_APPLICATION };
  const secret = typeof source === 'string' ? source : (source.options.connectionString ?? '');
  const min = options.min_backoff_ms ?? 100;
  const max = options.max_backoff_ms ?? 5000;
  const report = (code: WakeProblemCode, error: unknown) => {
    const text = error instanceof Error ? error.message : String(error);
    options.onError?.({ code, message: secret ? scrubSecret(text, secret) : text });
  };
  const guard = (code: WakeProblemCode, run: () => void | Promise<void>) => {
    try {
      Promise.resolve(run()).catch((error: unknown) => report(code, error));
    } catch (error) {
      report(code, error);
    }
  };

  let client: Client | null = null;
  let connecting: Promise<void> | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let failures = 0;
  let connects = 0;
  let closed = false;

  const schedule = () => {
    if (closed || timer) return;
    const delay = Math.min(max, min * 2 ** Math.min(failures, 20));
    failures++;
    timer = setTimeout(() => {
      timer = null;
      connecting = connect();
    }, delay);
  };
  const lost = (c: Client, error?: unknown) => {
    if (client !== c) return;
    client = null;
    if (error !== undefined) report('WAKE_CONNECTION_LOST', error);
    c.end().catch(() => undefined);
    schedule();
  };
  const connect = async (): Promise<void> => {
    const c = new pg.Client(config);
    c.on('error', (error) => lost(c, error));
    c.on('end', () => lost(c, new Error('connection ended')));
    c.on('notification', (msg) => {
      if (msg.channel !== WAKE_CHANNEL) return;
      const parsed = parseWakeNotice(msg.payload);
      if (!parsed.ok) report('WAKE_PAYLOAD_INVALID', `malformed ${WAKE_CHANNEL} payload: ${parsed.why}`);
      else guard('WAKE_HANDLER_FAILED', () => onWake(parsed.notice));
    });
    try {
      await c.connect();
      await c.query(`LISTEN ${WAKE_CHANNEL}`);
    } catch (error) {
      c.end().catch(() => undefined);
      if (closed) return;
      report('WAKE_CONNECT_FAILED', error);
      schedule();
      return;
    }
    if (closed) {
      await c.end().catch(() => undefined);
      return;
    }
    client = c;
    failures = 0;
    connects++;
    if (options.onResync) guard('WAKE_HANDLER_FAILED', options.onResync);
  };

  connecting = connect();
  return {
    get connected() {
      return client !== null;
    },
    get connects() {
      return connects;
    },
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      timer = null;
      await connecting;
      const c = client;
      client = null;
      await c?.end().catch(() => undefined);
    },
  };
}

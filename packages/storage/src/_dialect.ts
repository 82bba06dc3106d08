/**
 * @module dialect
 * The dialect seam: each query function index.ts exports dispatches on its store. A
 * SQLite `Store` runs the SQLite function (synchronously, one `instanceof`); a PgStore
 * runs the twin of the same name in the queries namespace it carries (`pgQueries`,
 * attached by `openPgStore`, so this package never loads `pg`); a twin not ported yet
 * rejects with STORE_UNSUPPORTED. A first argument that is no store (functions that
 * take none) goes to the SQLite function unchanged.
 */
import type { ColonyStore } from './_colony-store';
import { Store } from './_store';
import { StoreError } from './_store-state';

type AnyFn = (...args: never[]) => unknown;

/** A store-first SQLite function as its dispatcher: same on a `Store`, maybe a promise on any store. */
export type Dispatched<F> = F extends (store: Store, ...args: infer A) => infer R
  ? { (store: Store, ...args: A): R; (store: ColonyStore, ...args: A): R | Promise<Awaited<R>> }
  : F;

export type DispatchedModule<M> = { readonly [K in keyof M]: Dispatched<M[K]> };

interface PgCarrier {
  readonly dialect: 'postgres';
  readonly queries?: Readonly<Record<string, unknown>>;
}

function unsupported(name: string, location: string): Promise<never> {
  const message = `${name} is not available on PostgreSQL yet`;
  return Promise.reject(new StoreError({ code: 'STORE_UNSUPPORTED', message, details: { query: name, location } }));
}

/** Runs `name` on a store that is not a SQLite `Store`. */
function onOther(name: string, fn: AnyFn, args: unknown[]): unknown {
  const store = args[0] as PgCarrier | undefined;
  if (store?.dialect !== 'postgres') return (fn as (...a: unknown[]) => unknown)(...args);
  const twin = store.queries?.[name];
  if (typeof twin !== 'function') return unsupported(name, (store as unknown as ColonyStore).location);
  return (twin as (...a: unknown[]) => unknown)(...args);
}

function dispatcher(name: string, fn: AnyFn): AnyFn {
  const sqlite = fn as (...a: unknown[]) => unknown;
  return function dispatch(this: unknown, ...args: unknown[]) {
    return args[0] instanceof Store ? sqlite(...args) : onOther(name, fn, args);
  } as AnyFn;
}

/**
 * `fn(value)`, at once when `value` is no promise: a SQLite store answers its query
 * functions synchronously, and a path that must stay synchronous there (a lock poll's
 * `unlessSettled`) chains them with this instead of `await`.
 */
export function andThen<T, R>(value: T | Promise<T>, fn: (value: T) => R): R | Promise<Awaited<R>> {
  return value instanceof Promise ? (value.then(fn) as Promise<Awaited<R>>) : fn(value);
}

/** The module's functions as dispatchers (values that are no function stay as they are). */
export function dispatched<M extends object>(module: M): DispatchedModule<M> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(module)) {
    out[name] = typeof value === 'function' ? dispatcher(name, value as AnyFn) : value;
  }
  return out as DispatchedModule<M>;
}

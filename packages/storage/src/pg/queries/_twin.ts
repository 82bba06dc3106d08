/**
 * @module pg/queries/twin
 * The compiler's check that a PostgreSQL query module is the twin of its SQLite one:
 * `PgTwins<typeof import('../../claims')>` is every function of that module with the
 * store argument a `PgStore` and the result a promise of the same value. A PostgreSQL
 * module `satisfies` it (index.ts), so a changed argument or result on either side, or
 * a function missing here, fails `tsc`.
 */
import type { Store } from '../../_store';
import type { PgStore } from '../store/pg-store';

type Fn = (...args: never[]) => unknown;

export type PgTwin<F> = F extends (store: Store, ...args: infer A) => infer R
  ? (store: PgStore, ...args: A) => Promise<Awaited<R>>
  : never;

export type PgTwins<M> = { [K in keyof M as M[K] extends Fn ? K : never]: PgTwin<M[K]> };

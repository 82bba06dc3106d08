/**
 * Parity between a query module and its PostgreSQL twin: `parity(ctx)` opens a fresh
 * SQLite store on a temp file and a PgStore on a fresh database (so identity ids start
 * alike), and `call(name, ...args)` runs the SQLite function and its twin of that name,
 * each in a write of its own store, and asserts both answers are equal.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect } from 'vitest';
import { openStore, type Store } from '../src/index';
import { type PgStore, pgQueries } from '../src/pg/index';
import type { PgStoreContext } from './_pg-store';

type AnyFn = (store: unknown, ...args: unknown[]) => unknown;
export type Module = Record<string, unknown>;

export interface Parity {
  readonly sqlite: Store;
  readonly pg: PgStore;
  /** The PgStore's fresh database. */
  readonly url: string;
  /** Both answers, asserted equal; the SQLite one. */
  call(name: string, ...args: unknown[]): Promise<unknown>;
  /** Both calls fail. */
  fails(name: string, ...args: unknown[]): Promise<void>;
}

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const clean of cleanups.splice(0)) clean();
});

export async function parity(ctx: PgStoreContext, sqliteModule: Module): Promise<Parity> {
  const dir = mkdtempSync(join(tmpdir(), 'colony-pg-parity-'));
  const sqlite = openStore({ path: join(dir, 'colony.db') });
  cleanups.push(() => {
    sqlite.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const url = await ctx.database();
  const pg = await ctx.open({ url });
  const fns = (name: string) => {
    const [s, p] = [sqliteModule[name], (pgQueries as Module)[name]];
    if (typeof s !== 'function' || typeof p !== 'function') throw new Error(`no twin named ${name}`);
    return [s as AnyFn, p as AnyFn] as const;
  };
  return {
    sqlite,
    pg,
    url,
    async call(name, ...args) {
      const [s, p] = fns(name);
      const expected = await sqlite.write(() => s(sqlite, ...args));
      expect(await pg.write(() => p(pg, ...args)), name).toEqual(expected);
      return expected;
    },
    async fails(name, ...args) {
      const [s, p] = fns(name);
      await expect(
        sqlite.write(() => s(sqlite, ...args)),
        name,
      ).rejects.toThrow();
      await expect(
        pg.write(() => p(pg, ...args)),
        name,
      ).rejects.toThrow();
    },
  };
}

/**
 * Every invariant the SQLite schema enforces by a constraint holds on PostgreSQL too,
 * enumerated from the table configs (not hand-picked): each NOT NULL column refuses
 * NULL, each foreign key refuses a missing parent (and ON DELETE CASCADE cascades),
 * each primary key and unique index refuses a duplicate, each partial unique index
 * refuses one only where its WHERE holds, each check exists.
 */
import { getTableColumns } from 'drizzle-orm';
import { getTableConfig, type SQLiteTable } from 'drizzle-orm/sqlite-core';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openPgDatabase } from '../src/pg/index';
import { RowFactory, SQLITE_TABLES, sqlStateOf } from './_pg-rows';
import { describePg, type PgCluster, startCluster } from './_postgres';

const TABLES = SQLITE_TABLES;
const configs = [...TABLES.values()].map((t) => getTableConfig(t));

/** Values that make each partial unique index's WHERE true, and false. */
const PARTIAL: Record<string, { inside: Record<string, string>; outside: Record<string, string> }> = {
  file_claims_live_uq: { inside: { state: 'active' }, outside: { state: 'released' } },
  plan_subtask_claims_active_uq: { inside: { state: 'active' }, outside: { state: 'completed' } },
  write_proposals_pending_uq: { inside: { status: 'pending' }, outside: { status: 'applied' } },
};

describePg('PostgreSQL constraints', () => {
  let cluster: PgCluster;
  let client: pg.Client;
  let rows: RowFactory;
  beforeAll(async () => {
    cluster = await startCluster();
    const url = await cluster.database();
    await (await openPgDatabase(url)).close();
    client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query('BEGIN');
    rows = new RowFactory(client, TABLES);
  });
  afterAll(async () => {
    await client?.end();
    cluster?.stop();
  });

  it('every table accepts a valid row (the baseline the other checks break)', async () => {
    for (const { name } of configs) expect(await sqlStateOf(client, () => rows.insert(name)), name).toBeUndefined();
  });

  it('every NOT NULL column refuses NULL (23502)', async () => {
    let checked = 0;
    for (const { name, columns } of configs) {
      for (const column of columns.filter((c) => c.notNull)) {
        const state = await sqlStateOf(client, () => rows.insert(name, { [column.name]: null }));
        expect(state, `${name}.${column.name}`).toBe('23502');
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(150);
  });

  it('every foreign key refuses a missing parent (23503); cascades cascade', async () => {
    let checked = 0;
    for (const { name, foreignKeys } of configs) {
      for (const fk of foreignKeys) {
        const fkColumn = fk.reference().columns[0];
        const column = fkColumn?.name as string;
        const missing = fkColumn?.columnType === 'SQLiteText' ? 'no-such-parent' : 987_654_321;
        expect(await sqlStateOf(client, () => rows.insert(name, { [column]: missing })), `${name}.${column}`).toBe(
          '23503',
        );
        const child = await rows.insert(name);
        const parentTable = getTableConfig(fk.reference().foreignTable).name;
        const parentColumn = fk.reference().foreignColumns[0]?.name as string;
        const remove = () => client.query(`DELETE FROM "${parentTable}" WHERE "${parentColumn}" = $1`, [child[column]]);
        if (fk.onDelete === 'cascade') {
          await remove();
          const left = await client.query(`SELECT 1 FROM "${name}" WHERE "${column}" = $1`, [child[column]]);
          expect(left.rowCount, `${name} cascades from ${parentTable}`).toBe(0);
        } else {
          expect(await sqlStateOf(client, remove), `${parentTable} row still referenced by ${name}`).toBe('23503');
        }
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(25);
  });

  it('every primary key and unique index refuses a duplicate (23505)', async () => {
    let checked = 0;
    for (const config of configs) {
      const keys = [
        ...config.columns
          .filter((c) => c.primary)
          .map((c) => ({ name: `${config.name} pk`, cols: [c.name], where: undefined })),
        ...config.primaryKeys.map((pk) => ({
          name: `${config.name} pk`,
          cols: pk.columns.map((c) => c.name),
          where: undefined,
        })),
        ...config.indexes
          .filter((i) => i.config.unique)
          .map((i) => ({
            name: i.config.name,
            cols: i.config.columns.map((c) => (c as { name: string }).name),
            where: i.config.where,
          })),
      ];
      for (const key of keys) {
        const partial = PARTIAL[key.name];
        if (key.where) expect(partial, `values for the WHERE of ${key.name}`).toBeDefined();
        const first = await rows.insert(config.name, partial?.inside ?? {});
        const copy = Object.fromEntries(key.cols.map((c) => [c, first[c]]));
        const dup = async () =>
          rows.write(config.name, { ...(await rows.valid(config.name, partial?.inside)), ...copy });
        expect(await sqlStateOf(client, dup), key.name).toBe('23505');
        if (partial) {
          const outside = async () =>
            rows.write(config.name, { ...(await rows.valid(config.name, partial.outside)), ...copy });
          expect(await sqlStateOf(client, outside), `${key.name} outside its WHERE`).toBeUndefined();
        }
        checked++;
      }
    }
    expect(checked).toBe(configs.length + configs.flatMap((c) => c.indexes.filter((i) => i.config.unique)).length);
    expect(Object.keys(PARTIAL).sort()).toEqual(
      configs
        .flatMap((c) => c.indexes.filter((i) => i.config.unique && i.config.where).map((i) => i.config.name))
        .sort(),
    );
  });

  it('every index and check of the SQLite schema exists on PostgreSQL under its name', async () => {
    const { rows: idx } = await client.query(`SELECT indexname FROM pg_indexes WHERE schemaname = 'public'`);
    const { rows: checks } = await client.query(`SELECT conname FROM pg_constraint WHERE contype = 'c'`);
    const names = new Set([...idx, ...checks].map((r) => r.indexname ?? r.conname));
    for (const config of configs) {
      for (const i of config.indexes) expect(names.has(i.config.name), i.config.name).toBe(true);
      for (const c of config.checks) expect(names.has(c.name), c.name).toBe(true);
      expect(Object.keys(getTableColumns(TABLES.get(config.name) as SQLiteTable)).length).toBe(config.columns.length);
    }
  });
});

/**
 * @module doctor/store
 * The store this command line would open, why, and whether it is there and is a
 * SQLite file. Read only: doctor never creates the store or its folder.
 */
import { closeSync, existsSync, openSync, readSync, statSync } from 'node:fs';
import { storeChoice } from '../../_store-path';
import type { StoreBackend } from './_backend';
import type { DoctorCheck, DoctorContext } from './_check';

const WHY = {
  'db flag': 'from --db',
  'home flag': 'in --home',
  COLONY_HOME: 'in $COLONY_HOME',
  default: 'in the default home ~/.colony',
} as const;

/** A PostgreSQL store is named, not checked: doctor reads files only and never connects or migrates. */
function pgCheck(store: StoreBackend, ctx: DoctorContext): DoctorCheck {
  const why = ctx.db !== undefined ? 'from --db' : 'from $COLONY_DATABASE_URL';
  return {
    id: 'store',
    status: 'ok',
    message: `PostgreSQL database ${store.path} (${why}); not connected to: \`colony status\` connects`,
    details: { backend: 'postgres', url: store.path },
  };
}

export function storeCheck(ctx: DoctorContext, store: StoreBackend): DoctorCheck {
  if (store.backend === 'postgres') return pgCheck(store, ctx);
  const choice = storeChoice(ctx, ctx.env, ctx.userHome);
  const details = { backend: 'sqlite', db_path: choice.dbPath, home: choice.home, source: choice.source };
  const where = `${choice.dbPath} (${WHY[choice.source]})`;
  if (choice.dbPath === ':memory:') return { id: 'store', status: 'ok', message: 'in memory (--db :memory:)', details };
  if (!existsSync(choice.dbPath)) {
    return {
      id: 'store',
      status: 'warn',
      message: `no store yet at ${where}`,
      fix: 'the first command that writes creates it; check --db, --home and $COLONY_HOME if you expected one',
      details,
    };
  }
  if (!isSqliteFile(choice.dbPath)) {
    return {
      id: 'store',
      status: 'fail',
      message: `${where} is not a SQLite database`,
      fix: 'point --db at colony.db',
      details,
    };
  }
  const size = statSync(choice.dbPath).size;
  return { id: 'store', status: 'ok', message: `${where}, ${size} bytes`, details };
}

function isSqliteFile(path: string): boolean {
  const head = Buffer.alloc(16);
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    readSync(fd, head, 0, 16, 0);
    return head.toString('latin1') === 'SQLite format 3\u0000';
  } catch {
    return false;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

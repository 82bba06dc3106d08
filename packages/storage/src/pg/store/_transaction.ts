/**
 * @module pg/store/transaction
 * One transaction on one pooled client, and savepoints inside it. A write is READ
 * COMMITTED with `lock_timeout` set to the wait left; a read is REPEATABLE READ READ
 * ONLY, so every query of its body sees one snapshot. A throw rolls back; a client
 * whose ROLLBACK failed is destroyed, not returned to the pool.
 */
import type { AfterCommit, WriteRider } from './_body';
import type { PgTx } from './_context';

type Enter = <T>(body: () => T | Promise<T>) => Promise<T>;

function beginSql(readOnly: boolean, deadline: number): string {
  if (readOnly) return 'BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY';
  const lockMs = Math.max(1, Math.floor(deadline - Date.now()));
  return `BEGIN ISOLATION LEVEL READ COMMITTED; SET LOCAL lock_timeout = ${lockMs}`;
}

/** BEGIN, the rider then `fn` inside `tx` (through `enter`), COMMIT; ROLLBACK on a throw. */
export async function inTransaction<T>(
  tx: PgTx,
  deadline: number,
  enter: Enter,
  fn: () => T | Promise<T>,
  rider: WriteRider | undefined,
): Promise<T> {
  let broken: Error | undefined;
  let after: AfterCommit;
  try {
    await tx.client.query(beginSql(tx.readOnly, deadline));
    after = rider ? await enter(rider) : undefined;
    const result = await enter(fn);
    await tx.client.query('COMMIT');
    after?.(true);
    return result;
  } catch (error) {
    await tx.client.query('ROLLBACK').catch((failure: unknown) => {
      broken = failure instanceof Error ? failure : new Error(String(failure));
    });
    after?.(false);
    throw error;
  } finally {
    tx.state.done = true;
    tx.client.release(broken);
  }
}

/**
 * `fn` in a savepoint of `tx`: released when it returns, rolled back to when it throws.
 * Nested writes started at once (`Promise.all` in a body) take turns, as on SQLite: two
 * open at once would release or roll back each other's savepoints.
 */
export function inSavepoint<T>(tx: PgTx, fn: () => T | Promise<T>): Promise<T> {
  const run = (tx.turn ?? Promise.resolve()).then(() => savepoint(tx, fn));
  tx.turn = run.catch(() => undefined);
  return run;
}

async function savepoint<T>(tx: PgTx, fn: () => T | Promise<T>): Promise<T> {
  if (tx.state.done) throw new Error('a write inside a transaction that has ended (a body left it running)');
  const name = `colony_sp_${++tx.state.savepoints}`;
  await tx.client.query(`SAVEPOINT ${name}`);
  try {
    const result = await fn();
    await tx.client.query(`RELEASE SAVEPOINT ${name}`);
    return result;
  } catch (error) {
    await tx.client.query(`ROLLBACK TO SAVEPOINT ${name}`);
    await tx.client.query(`RELEASE SAVEPOINT ${name}`);
    throw error;
  }
}

/**
 * @module doctor/backend
 * Which store backend this command line uses, and where: today always `sqlite` and the
 * database file (a PostgreSQL backend would report `postgres` and its server). Doctor
 * prints it first as `backend: sqlite (<path>)`; `--json` has it as `store`.
 */
import { storeChoice } from '../../_store-path';
import type { DoctorContext } from './_check';

export interface StoreBackend {
  readonly backend: 'sqlite';
  readonly path: string;
}

export function storeBackend(ctx: DoctorContext): StoreBackend {
  return { backend: 'sqlite', path: storeChoice(ctx, ctx.env, ctx.userHome).dbPath };
}

export function describeBackend(store: StoreBackend): string {
  return `backend: ${store.backend} (${store.path})`;
}

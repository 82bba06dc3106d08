/**
 * @module doctor/backend
 * Which store backend this command line uses, and where: `sqlite` and the database file,
 * or `postgres` and the URL `--db` or `$COLONY_DATABASE_URL` names, its password masked.
 * Doctor prints it first as `backend: sqlite (<path>)`; `--json` has it as `store`.
 */
import { databaseUrlOf } from '@swarm/core/serve';
import { storeChoice } from '../../_store-path';
import type { DoctorContext } from './_check';

export interface StoreBackend {
  readonly backend: 'sqlite' | 'postgres';
  readonly path: string;
}

export async function storeBackend(ctx: DoctorContext): Promise<StoreBackend> {
  const url = databaseUrlOf(ctx, ctx.env);
  if (url) return { backend: 'postgres', path: await masked(url) };
  return { backend: 'sqlite', path: storeChoice(ctx, ctx.env, ctx.userHome).dbPath };
}

export function describeBackend(store: StoreBackend): string {
  return `backend: ${store.backend} (${store.path})`;
}

/** The URL with its password masked; loaded only for a PostgreSQL URL (never fails doctor). */
async function masked(url: string): Promise<string> {
  try {
    return (await import('@swarm/core')).maskUrl(url);
  } catch {
    return 'postgres://… (the URL could not be shown safely)';
  }
}

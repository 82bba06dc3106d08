/**
 * `pg` is an optional peer of @swarm/storage, loaded only by who names a PostgreSQL URL:
 * importing the BUILT @swarm/storage and opening a SQLite store resolves neither `pg`,
 * drizzle's node-postgres driver, pg-core's entry nor storage's pg module (a loader hook in a child process
 * records every resolved URL); `@swarm/storage/pg` opening a URL does load `pg`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { resolvedBy as resolvedIn } from '../../../test/support/resolved-modules';

const STORAGE = fileURLToPath(new URL('..', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'colony-pg-lazy-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Every URL the child resolves while running `code` (an ES module body), one per line. */
function resolvedBy(code: string): string[] {
  const child = resolvedIn(code, STORAGE);
  expect(child.stderr).toBe('');
  expect(child.status).toBe(0);
  return child.urls;
}

/**
 * node-postgres, drizzle's node-postgres driver, pg-core's entry and storage's pg entry.
 * (drizzle-orm's own root module loads pg-core's column classes whatever the dialect.)
 */
const POSTGRES =
  /\/node_modules\/pg\/|drizzle-orm\/node-postgres\/|drizzle-orm\/pg-core\/index\.js|storage\/dist\/pg\//;

describe('pg stays unloaded for SQLite', () => {
  it('importing @swarm/storage (built) and opening a SQLite store loads neither pg, its drizzle driver nor the pg entry', () => {
    const db = join(dir, 'colony.db');
    const urls = resolvedBy(
      `const s = await import('@swarm/storage'); const store = s.openStore({ path: ${JSON.stringify(db)} }); store.close();`,
    );
    expect(urls.some((u) => u.includes('packages/storage/dist/index.js'))).toBe(true);
    expect(urls.some((u) => u.includes('better-sqlite3'))).toBe(true);
    expect(urls.filter((u) => POSTGRES.test(u))).toEqual([]);
  });

  it('the check sees pg: @swarm/storage/pg opening a PostgreSQL URL loads it', () => {
    const url = `postgresql://colony@localhost/none?host=${encodeURIComponent(join(dir, 'no-server'))}`;
    const urls = resolvedBy(
      `const { openPgDatabase } = await import('@swarm/storage/pg'); await openPgDatabase(${JSON.stringify(url)}).then(() => process.exit(3), () => {});`,
    );
    expect(urls.filter((u) => POSTGRES.test(u)).length).toBeGreaterThan(0);
    expect(urls.some((u) => /\/pg\/(lib|esm)\//.test(u))).toBe(true);
  });
});

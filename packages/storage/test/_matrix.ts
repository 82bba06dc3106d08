/**
 * Test helpers: run a storage suite against an in-memory and an on-disk SQLite store
 * alike (h3's describeMatrix), with every store and temp folder cleaned up afterwards.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe } from 'vitest';
import { openStore, type Store } from '../src/index';

export type StoreKind = 'memory' | 'file';

export interface MatrixContext {
  readonly kind: StoreKind;
  /** Opens a fresh store of this kind; closed after each test. */
  open(): Store;
}

/** A temp folder removed after the current test file. */
export function tempDir(prefix = 'colony-storage-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

export function describeMatrix(name: string, suite: (ctx: MatrixContext) => void): void {
  for (const kind of ['memory', 'file'] as const) {
    describe(`${name} (${kind})`, () => {
      const opened: Store[] = [];
      const dirs: string[] = [];
      afterEach(() => {
        for (const store of opened.splice(0)) store.close();
        for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
      });
      suite({
        kind,
        open() {
          let path = ':memory:';
          if (kind === 'file') {
            const dir = tempDir();
            dirs.push(dir);
            path = join(dir, 'colony.db');
          }
          const store = openStore({ path });
          opened.push(store);
          return store;
        },
      });
    });
  }
}

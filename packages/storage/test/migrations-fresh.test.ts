/**
 * Both migration folders are up to date with the one schema definition: drizzle-kit,
 * run on a copy of each folder, finds nothing to generate. A schema change without
 * `db:generate` and `db:generate:pg` fails here.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';

const STORAGE = join(import.meta.dirname, '..');
const KIT = join(STORAGE, 'node_modules', '.bin', 'drizzle-kit');

const DIALECTS = [
  { dialect: 'sqlite', schema: './src/schema/index.ts', folder: 'drizzle' },
  { dialect: 'postgresql', schema: './drizzle-pg.schema.cjs', folder: 'drizzle-pg' },
];

describe('migrations are generated from the current schema', () => {
  for (const { dialect, schema, folder } of DIALECTS) {
    it(`${folder}/ (${dialect}) has nothing left to generate`, () => {
      // drizzle-kit takes `--out` relative to the working folder, so the copy lives inside it.
      const copy = mkdtempSync(join(STORAGE, `.${folder}-check-`));
      try {
        cpSync(join(STORAGE, folder), copy, { recursive: true });
        const before = readdirSync(copy).sort();
        const out = execFileSync(KIT, ['generate', '--dialect', dialect, '--schema', schema, '--out', basename(copy)], {
          cwd: STORAGE,
          encoding: 'utf8',
          timeout: 60_000,
        });
        expect(out).toContain('No schema changes');
        expect(readdirSync(copy).sort()).toEqual(before);
      } finally {
        rmSync(copy, { recursive: true, force: true });
      }
    });
  }
});

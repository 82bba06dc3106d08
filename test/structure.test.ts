/**
 * File size, pinned (issue 12, STYLE.md "one concept per file"): over the hand-written
 * sources (`.ts` under packages/x/src and apps/x/src, without `*.generated.ts`, `.d.ts`
 * and tests), no file passes 500 lines and the median file stays at or under 80 lines.
 * A file that grows past either is split along a real seam, one concept per file.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..');
const MAX_LINES = 500;
const MAX_MEDIAN = 80;

function handWrittenSources(): Array<{ path: string; lines: number }> {
  const files: Array<{ path: string; lines: number }> = [];
  for (const group of ['packages', 'apps']) {
    for (const name of readdirSync(join(ROOT, group))) {
      const src = join(ROOT, group, name, 'src');
      let entries: string[];
      try {
        entries = readdirSync(src, { recursive: true, encoding: 'utf8' });
      } catch {
        continue; // a workspace without sources of its own
      }
      for (const entry of entries) {
        if (!entry.endsWith('.ts') || /\.(generated|d|test)\.ts$/.test(entry)) continue;
        const text = readFileSync(join(src, entry), 'utf8');
        files.push({
          path: `${group}/${name}/src/${entry}`,
          lines: text.split('\n').length - (text.endsWith('\n') ? 1 : 0),
        });
      }
    }
  }
  return files;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

describe('source file sizes', () => {
  const files = handWrittenSources();

  it('reads the hand-written sources of every package and app', () => {
    expect(files.length).toBeGreaterThan(100);
    expect(files.some((f) => f.path.startsWith('apps/cli/src/'))).toBe(true);
  });

  it(`keeps every file at or under ${MAX_LINES} lines`, () => {
    expect(files.filter((f) => f.lines > MAX_LINES).map((f) => `${f.path}: ${f.lines}`)).toEqual([]);
  });

  it(`keeps the median file at or under ${MAX_MEDIAN} lines`, () => {
    expect(median(files.map((f) => f.lines))).toBeLessThanOrEqual(MAX_MEDIAN);
  });
});

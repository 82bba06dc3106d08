import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fileClock } from '../src/clock';

describe('fileClock', () => {
  it('reads the epoch ms in the file on every call, and system time while there is none', () => {
    const dir = mkdtempSync(join(tmpdir(), 'colony-clock-'));
    const file = join(dir, 'clock');
    const clock = fileClock(file);
    const before = Date.now();
    expect(clock.now()).toBeGreaterThanOrEqual(before);
    writeFileSync(file, '1700000000000\n');
    expect(clock.now()).toBe(1_700_000_000_000);
    writeFileSync(file, '1700000060000');
    expect(clock.now()).toBe(1_700_000_060_000);
    writeFileSync(file, 'soon');
    expect(clock.now()).toBeGreaterThanOrEqual(before);
    rmSync(dir, { recursive: true });
  });
});

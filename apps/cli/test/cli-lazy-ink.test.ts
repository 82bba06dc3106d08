/**
 * The dashboard's ink and React load only with the dashboard: the built CLI's
 * `--version`, `status` and `swarm status` are run as real processes with module hooks
 * recording every module they load, and none of them loads the chunk holding ink and
 * React (found by strings only they contain). The chunk exists, and the dashboard's
 * entry is the one that imports it.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { openColony } from '@swarm/core';
import { describe, expect, it } from 'vitest';

const DIST = join(fileURLToPath(new URL('../dist', import.meta.url)));
const HOOKS = pathToFileURL(fileURLToPath(new URL('./_load-recorder.mjs', import.meta.url))).href;
const REGISTER = `data:text/javascript,import{register}from"node:module";register(${JSON.stringify(HOOKS)});`;

/** Chunks holding ink (its raw-mode error text) or React (its element symbol). */
function uiChunks(): string[] {
  return readdirSync(DIST).filter((f) => {
    if (!f.endsWith('.js')) return false;
    const text = readFileSync(join(DIST, f), 'utf8');
    return text.includes('Raw mode is not supported') || text.includes('react.transitional.element');
  });
}

async function loadedBy(args: string[]): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), 'colony-lazy-'));
  const log = join(dir, 'loaded.txt');
  spawnSync('git', ['init', '-q'], { cwd: dir });
  const store = args[0] === '--version' ? [] : ['--db', join(dir, 'c.db'), '--home', dir];
  // Read commands refuse a missing store (STORE_NOT_FOUND): make it first.
  if (store.length > 0) await openColony({ home: dir, dbPath: join(dir, 'c.db'), roots: [dir] }).close();
  const r = spawnSync(process.execPath, ['--import', REGISTER, join(DIST, 'cli.js'), ...args, ...store], {
    cwd: dir,
    encoding: 'utf8',
    env: { ...process.env, COLONY_HOME: dir, COLONY_LOAD_LOG: log },
  });
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
  return readFileSync(log, 'utf8')
    .split('\n')
    .filter((u) => u.startsWith(pathToFileURL(DIST).href))
    .map((u) => u.slice(u.lastIndexOf('/') + 1));
}

describe('ink and React load only with the dashboard', () => {
  const ui = uiChunks();

  it('the bundle holds ink and React in chunks of their own, and the recorder sees them when they load', () => {
    expect(ui.length).toBeGreaterThan(0);
    expect(ui).not.toContain('cli.js');
    // The control: importing the chunk under the same hooks records it.
    const dir = mkdtempSync(join(tmpdir(), 'colony-lazy-'));
    const log = join(dir, 'loaded.txt');
    const url = pathToFileURL(join(DIST, ui[0]!)).href;
    const r = spawnSync(
      process.execPath,
      ['--import', REGISTER, '--input-type=module', '-e', `await import('${url}')`],
      {
        encoding: 'utf8',
        env: { ...process.env, COLONY_LOAD_LOG: log },
      },
    );
    expect(r.status).toBe(0);
    expect(readFileSync(log, 'utf8')).toContain(url);
  });

  it.each(['--version', 'status', 'swarm status'])('colony %s does not load them', async (command) => {
    const loaded = await loadedBy(command.split(' '));
    expect(loaded).toContain('cli.js');
    expect(loaded.filter((f) => ui.includes(f))).toEqual([]);
  });
});

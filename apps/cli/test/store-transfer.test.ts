/**
 * `colony store export` / `import` as real processes on real SQLite files: a store
 * filled through real tool calls (plans, claims, messages, handoffs, receipts, shared
 * context, the queue, the mesh, profiles, proposals, links) is exported, imported into
 * a fresh store and exported again, byte for byte the same; the imported store answers
 * search and task calls as the original does. Bad input (cut short, another version,
 * a malformed line, a store that holds rows) is refused with a stable code, exit 1,
 * and the target is left as it was (a new target is not even created).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Colony, manualClock, openColony } from '@swarm/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fillStore } from './_store-fill';
import { seedViewerStore, T0 } from './_viewer-seed';

const CLI = join(fileURLToPath(new URL('../../..', import.meta.url)), 'apps/cli/dist/cli.js');

function colony(args: string[], input?: string) {
  const r = spawnSync(process.execPath, [CLI, ...args], {
    encoding: 'utf8',
    timeout: 30_000,
    ...(input === undefined ? {} : { input }),
    env: { ...process.env, NO_COLOR: '1' },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

let dir: string;
let source: string;
let repo: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'colony-store-transfer-'));
  const seeded = await seedViewerStore(dir);
  source = seeded.db;
  repo = seeded.repo;
  await fillStore(seeded.home, source, repo);
}, 60_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const exported = (db: string) => {
  const run = colony(['store', 'export', '--db', db, '--no-timestamp']);
  expect(run.code, run.stderr).toBe(0);
  return run.stdout;
};

/** The answers the imported store must give as the original does (read tools only). */
async function answers(db: string): Promise<unknown[]> {
  const lib: Colony = openColony({ home: join(dir, 'home'), dbPath: db, clock: manualClock(T0), receipts: false });
  try {
    const calls: Array<[string, Record<string, unknown>]> = [
      ['search', { query: 'quokka cache', limit: 5 }],
      ['search', { query: 'widget', limit: 10 }],
      ['task_list', { limit: 20 }],
      ['task_messages', { session_id: 'claude-2', agent: 'claude', since_ts: 0 }],
      ['task_plan_list', { repo_root: repo }],
      ['ctx_get', { agent: 'Gemini', key: 'k.1' }],
    ];
    const out: unknown[] = [];
    for (const [name, args] of calls) out.push(await lib.handleToolCall(name, args));
    return out;
  } finally {
    await lib.close();
  }
}

describe('colony store export / import', () => {
  it('round-trips a store filled by tool calls: the second export is byte-identical and the answers match', async () => {
    const first = exported(source);
    const counts = JSON.parse(first.split('\n').at(-2) ?? '{}').end.counts as Record<string, number>;
    const filled = Object.entries(counts)
      .filter(([, n]) => n > 0)
      .map(([t]) => t);
    for (const table of [
      'observations',
      'plans',
      'plan_subtasks',
      'file_claims',
      'batons',
      'messages',
      'mcp_metrics',
      'context_entries',
      'queue_items',
      'mesh_context',
      'mesh_messages',
      'agent_profiles',
      'proposals',
      'task_links',
    ]) {
      expect(filled).toContain(table);
    }
    const file = join(dir, 'one.jsonl');
    writeFileSync(file, first);
    const target = join(dir, 'imported', 'colony.db');
    const run = colony(['store', 'import', '--db', target, '--in', file, '--json']);
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ db_path: target, tables: counts });
    const piped = join(dir, 'piped.db');
    expect(colony(['store', 'import', '--db', piped], first).code).toBe(0);
    expect(exported(target)).toBe(first);
    expect(exported(piped)).toBe(first);
    const [original, imported] = [await answers(source), await answers(target)];
    expect(JSON.stringify(imported)).toContain('quokka');
    expect(imported).toEqual(original);
    for (const outcome of imported) expect(outcome).toMatchObject({ ok: true });
  });

  it('writes --out FILE whole and reports counts; the timestamp is recorded unless --no-timestamp', () => {
    const out = join(dir, 'out.jsonl');
    const run = colony(['store', 'export', '--db', source, '--out', out, '--json']);
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ out, schema: expect.any(Number) });
    const header = JSON.parse(readFileSync(out, 'utf8').split('\n')[0] ?? '{}');
    expect(header).toMatchObject({ format: 'colony-store', version: 1 });
    expect(Date.parse(header.exported_at)).toBeGreaterThan(0);
  });

  const good = () =>
    exported(source)
      .split('\n')
      .filter((l) => l !== '');
  const refusals: Array<[string, () => string, string]> = [
    ['a truncated file', () => good().slice(0, -3).join('\n'), 'STORE_IMPORT_TRUNCATED'],
    [
      'another format version',
      () => [good()[0]?.replace('"version":1', '"version":2'), ...good().slice(1)].join('\n'),
      'STORE_IMPORT_VERSION',
    ],
    [
      'a malformed line',
      () => [...good().slice(0, 5), '{"t":"sessions","r":{"id":', ...good().slice(5)].join('\n'),
      'STORE_IMPORT_MALFORMED',
    ],
  ];
  for (const [what, text, code] of refusals) {
    it(`refuses ${what} with ${code} (exit 1) and creates no store`, () => {
      const target = join(dir, `refused-${code}.db`);
      const run = colony(['store', 'import', '--db', target], text());
      expect(run.code).toBe(1);
      expect(run.stderr).toContain(`colony: ${code}: `);
      expect(existsSync(target)).toBe(false);
    });
  }

  it('refuses a store that holds rows with STORE_IMPORT_NOT_EMPTY and leaves it unchanged', () => {
    const target = join(dir, 'busy.db');
    expect(colony(['store', 'import', '--db', target], exported(source)).code).toBe(0);
    const before = exported(target);
    const again = colony(['store', 'import', '--db', target], before);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('colony: STORE_IMPORT_NOT_EMPTY: ');
    expect(exported(target)).toBe(before);
  });
});

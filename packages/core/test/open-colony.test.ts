/**
 * openColony: the composition root. Settings degrade to defaults with a warning,
 * mutating calls are idempotent per key, and every call leaves a priced receipt.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTokenCounter } from '@swarm/coordination';
import { listReceipts, openStore, type Receipt } from '@swarm/storage';
import { afterEach, describe, expect, it } from 'vitest';
import {
  COLONY_TOOLS,
  type Colony,
  defaultSettings,
  manualClock,
  type OpenColonyOptions,
  openColony,
  SETTINGS_FILE,
} from '../src/index';
import { DB_FILE, resolveDbPath, resolveHome } from '../src/paths';

const REPO = '/abs/repo';
const cleanups: Array<() => void> = [];

afterEach(() => {
  for (const fn of cleanups.splice(0).reverse()) fn();
});

function tempHome(): string {
  const home = mkdtempSync(join(tmpdir(), 'colony-core-'));
  cleanups.push(() => rmSync(home, { recursive: true, force: true }));
  return home;
}

function open(options: OpenColonyOptions = {}): Colony {
  const colony = openColony({ home: tempHome(), clock: manualClock(), ...options });
  cleanups.push(() => colony.close());
  return colony;
}

async function ok<T = Record<string, unknown>>(colony: Colony, tool: string, args: unknown): Promise<T> {
  const outcome = await colony.handleToolCall(tool, args);
  if (!outcome.ok) throw new Error(`${tool}: ${outcome.text}`);
  return outcome.value as T;
}

async function fail(colony: Colony, tool: string, args: unknown) {
  const outcome = await colony.handleToolCall(tool, args);
  if (outcome.ok) throw new Error(`${tool} should fail: ${outcome.text}`);
  return outcome.error;
}

/** Receipts are written once their tokens are counted (on the token worker); closing writes the rest. */
async function receiptsOf(colony: Colony): Promise<Receipt[]> {
  await colony.close();
  const store = openStore({ path: colony.dbPath });
  try {
    return listReceipts(store, 0);
  } finally {
    store.close();
  }
}

const thread = (colony: Colony, session_id = 'claude-1', agent = 'claude') =>
  ok<{ task_id: number }>(colony, 'task_thread', { repo_root: REPO, branch: 'main', session_id, agent });

describe('paths', () => {
  it('puts the store at <home>/colony.db unless told otherwise', () => {
    expect(resolveHome('/x/home')).toBe('/x/home');
    expect(resolveHome(undefined, { COLONY_HOME: '/from/env' })).toBe('/from/env');
    expect(resolveHome(undefined, {})).toMatch(/\.colony$/);
    expect(resolveDbPath('/x/home')).toBe(join('/x/home', DB_FILE));
    expect(resolveDbPath('/x/home', 'rel.db')).toBe(join(process.cwd(), 'rel.db'));
    expect(resolveDbPath('/x/home', ':memory:')).toBe(':memory:');
  });

  it('opens the store file in home and reports status', async () => {
    const colony = open();
    expect(colony.dbPath).toBe(join(colony.home, DB_FILE));
    await thread(colony);
    expect(await colony.status()).toEqual({
      home: colony.home,
      db_path: colony.dbPath,
      sessions: 1,
      observations: 1,
      tasks: 1,
      tools: COLONY_TOOLS.length,
      warnings: [],
    });
  });

  it('can run on a throwaway in-memory store', async () => {
    const colony = open({ dbPath: ':memory:' });
    await thread(colony);
    expect((await colony.status()).tasks).toBe(1);
  });
});

describe('settings.json', () => {
  function withSettings(text: string): Colony {
    const home = tempHome();
    writeFileSync(join(home, SETTINGS_FILE), text);
    const colony = openColony({ home, clock: manualClock() });
    cleanups.push(() => colony.close());
    return colony;
  }

  it('missing: defaults and no warning', () => {
    const colony = open();
    expect(colony.settings).toEqual(defaultSettings());
    expect(colony.settings).toEqual({
      search: { alpha: 0.5 },
      bridge: { writeOmxNotepadPointer: false },
      foraging: { scanOnSessionStart: false },
    });
    expect(colony.warnings).toEqual([]);
  });

  it('valid: applied, with defaults for the rest', () => {
    const colony = withSettings(JSON.stringify({ bridge: { writeOmxNotepadPointer: true } }));
    expect(colony.settings).toEqual({
      search: { alpha: 0.5 },
      bridge: { writeOmxNotepadPointer: true },
      foraging: { scanOnSessionStart: false },
    });
    expect(colony.warnings).toEqual([]);
  });

  it('malformed JSON: defaults plus a warning, and colony still works', async () => {
    const colony = withSettings('{ "search": { "alpha": 0.3 ');
    expect(colony.settings).toEqual(defaultSettings());
    expect(colony.warnings).toHaveLength(1);
    expect(colony.warnings[0]).toMatch(/settings: .*settings\.json is not valid JSON.*using defaults/);
    expect((await thread(colony)).task_id).toBeGreaterThan(0);
    expect((await colony.status()).warnings).toEqual(colony.warnings);
  });

  it.each([
    ['an out-of-range value', { search: { alpha: 7 } }, /search\.alpha/],
    ['a wrong type', { bridge: { writeOmxNotepadPointer: 'yes' } }, /bridge\.writeOmxNotepadPointer/],
    ['a non-object', [1, 2], /\(root\)/],
  ])('invalid (%s): defaults plus a warning naming the field', async (_label, value, field) => {
    const colony = withSettings(JSON.stringify(value));
    expect(colony.settings).toEqual(defaultSettings());
    expect(colony.warnings).toHaveLength(1);
    expect(colony.warnings[0]).toMatch(/is invalid/);
    expect(colony.warnings[0]).toMatch(field);
    expect((await thread(colony)).task_id).toBeGreaterThan(0);
  });

  it('given in options: the file is not read', () => {
    const home = tempHome();
    writeFileSync(join(home, SETTINGS_FILE), 'not json');
    const settings = {
      search: { alpha: 0.9 },
      bridge: { writeOmxNotepadPointer: false },
      foraging: { scanOnSessionStart: false },
    };
    const colony = openColony({ home, settings });
    cleanups.push(() => colony.close());
    expect(colony.settings).toBe(settings);
    expect(colony.warnings).toEqual([]);
  });

  it('told as they happen through onWarning', () => {
    const home = tempHome();
    writeFileSync(join(home, SETTINGS_FILE), '[');
    const seen: string[] = [];
    const colony = openColony({ home, onWarning: (m) => seen.push(m) });
    cleanups.push(() => colony.close());
    expect(seen).toEqual(colony.warnings);
    expect(seen).toHaveLength(1);
  });
});

describe('idempotency_key', () => {
  async function setup() {
    const colony = open();
    const { task_id } = await thread(colony);
    const post = { task_id, session_id: 'claude-1', kind: 'decision', content: 'Use WAL.', idempotency_key: 'post-1' };
    return { colony, task_id, post };
  }

  it('answers a retry with the identical first result and writes once', async () => {
    const clock = manualClock();
    const colony = open({ clock });
    const { task_id } = await thread(colony);
    const post = { task_id, session_id: 'claude-1', kind: 'decision', content: 'Use WAL.', idempotency_key: 'post-1' };
    const before = (await colony.status()).observations;
    const first = await ok(colony, 'task_post', post);
    clock.advance(60_000);
    const second = await ok(colony, 'task_post', { ...post });
    expect(second).toEqual(first);
    expect((await colony.status()).observations).toBe(before + 1);
  });

  it('treats the same arguments in another key order as the same call', async () => {
    const { colony, post } = await setup();
    const first = await ok(colony, 'task_post', post);
    const reordered = Object.fromEntries(Object.entries(post).reverse());
    expect(await ok(colony, 'task_post', reordered)).toEqual(first);
  });

  it('refuses the same key with different arguments, writing nothing', async () => {
    const { colony, post } = await setup();
    await ok(colony, 'task_post', post);
    const before = (await colony.status()).observations;
    const error = await fail(colony, 'task_post', { ...post, content: 'Use rollback journal.' });
    expect(error).toMatchObject({ code: 'IDEMPOTENCY_KEY_REUSED', idempotency_key: 'post-1', tool: 'task_post' });
    expect((await colony.status()).observations).toBe(before);
  });

  it('keeps keys per tool', async () => {
    const { colony, post } = await setup();
    await ok(colony, 'task_post', post);
    const joined = await ok(colony, 'task_thread', {
      repo_root: REPO,
      branch: 'other',
      session_id: 'claude-1',
      agent: 'claude',
      idempotency_key: 'post-1',
    });
    expect(joined).toMatchObject({ created: true, branch: 'other' });
  });

  it('stores nothing for a refused first call, so a retry after fixing the cause runs', async () => {
    const colony = open();
    const { task_id } = await thread(colony);
    // codex-2 exists (it joined another branch) but is not a participant of this task yet.
    await ok(colony, 'task_thread', { repo_root: REPO, branch: 'dev', session_id: 'codex-2', agent: 'codex' });
    const post = { task_id, session_id: 'codex-2', kind: 'note', content: 'hello', idempotency_key: 'retry-1' };
    expect((await fail(colony, 'task_post', post)).code).toBe('NOT_PARTICIPANT');
    await thread(colony, 'codex-2', 'codex');
    const before = (await colony.status()).observations;
    const retried = await ok<{ id: number }>(colony, 'task_post', post);
    expect(retried.id).toBeGreaterThan(0);
    expect((await colony.status()).observations).toBe(before + 1);
    expect(await ok(colony, 'task_post', post)).toEqual(retried);
  });

  it('replays a recall without writing a second audit observation', async () => {
    const colony = open();
    await thread(colony);
    await thread(colony, 'codex-1', 'codex');
    const args = { target_session_id: 'claude-1', current_session_id: 'codex-1', idempotency_key: 'recall-1' };
    const first = await ok(colony, 'recall_session', args);
    const before = (await colony.status()).observations;
    expect(await ok(colony, 'recall_session', args)).toEqual(first);
    expect((await colony.status()).observations).toBe(before);
  });
});

describe('receipts (mcp_metrics)', () => {
  it('records every call with real token counts, its session and its outcome', async () => {
    const colony = open();
    const { task_id } = await thread(colony);
    await ok(colony, 'search', { query: 'anything at all' });
    await fail(colony, 'task_post', { task_id, session_id: 'ghost', kind: 'note', content: 'x' });
    await fail(colony, 'task_post', { task_id: 'seven' });
    const receipts = await receiptsOf(colony);
    expect(receipts.map((r) => [r.operation, r.sessionId, r.ok, r.errorCode])).toEqual([
      ['task_thread', 'claude-1', true, null],
      ['search', null, true, null],
      ['task_post', 'ghost', false, 'NOT_PARTICIPANT'],
      ['task_post', null, false, 'INVALID_PARAMETERS'],
    ]);
    for (const r of receipts) {
      expect(r.inputTokens).toBeGreaterThan(0);
      expect(r.outputTokens).toBeGreaterThan(0);
      expect(r.durationMs).toBeGreaterThanOrEqual(0);
      expect(r.ts).toBe(colony.clock.now());
    }
    expect(receipts[2]?.errorMessage).toMatch(/ghost/);
  });

  it('carry the counts of the in-thread tokenizer, however long or odd the texts', async () => {
    const colony = open();
    const { task_id } = await thread(colony);
    const args = { task_id, session_id: 'claude-1', kind: 'note', content: `<|endoftext|> ${'x'.repeat(700)} done` };
    const posted = await colony.handleToolCall('task_post', args);
    const searched = await colony.handleToolCall('search', { query: 'done' });
    const counter = createTokenCounter();
    const [, post, search] = await receiptsOf(colony);
    expect([post?.inputTokens, post?.outputTokens]).toEqual([
      counter.count(JSON.stringify(args)),
      counter.count(posted.text),
    ]);
    expect(search?.outputTokens).toBe(counter.count(searched.text));
  });

  it('are all written before the next call runs, counts included', async () => {
    const colony = open();
    await thread(colony);
    // No turn of the event loop between the calls: the second call waits for the first's counts.
    await Promise.resolve();
    const store = openStore({ path: colony.dbPath });
    try {
      await colony.handleToolCall('list_sessions', {});
      expect(listReceipts(store, 0).map((r) => r.operation)).toEqual(['task_thread']);
    } finally {
      store.close();
    }
  });

  it('are not written with receipts: false', async () => {
    const colony = open({ receipts: false });
    await thread(colony);
    expect(await receiptsOf(colony)).toEqual([]);
  });

  it('fall back to estimated token counts with a warning when the tokenizer cannot load', async () => {
    const colony = open({ tokenizerModule: 'no-such-tokenizer-module-xyz' });
    await thread(colony);
    // Counting happens after the answer (receipts, the thread's observation): so does the warning.
    const [receipt] = await receiptsOf(colony);
    expect(colony.warnings).toHaveLength(1);
    expect(colony.warnings[0]).toMatch(/tokenizer unavailable/);
    expect(receipt?.inputTokens).toBeGreaterThan(0);
    expect(receipt?.ok).toBe(true);
  });
});

describe('handleToolCall', () => {
  it('answers UNKNOWN_TOOL, and hides non-core tools from the core toolset', async () => {
    const colony = open();
    expect((await fail(colony, 'no_such_tool', {})).code).toBe('UNKNOWN_TOOL');
    const outcome = await colony.handleToolCall('list_sessions', {}, { toolset: 'core' });
    expect(!outcome.ok && outcome.error.code).toBe('UNKNOWN_TOOL');
  });

  it('never throws, even on a closed store: INTERNAL_ERROR, reported to onInternalError', async () => {
    const errors: string[] = [];
    const home = tempHome();
    const colony = openColony({ home, onInternalError: (_e, tool) => errors.push(tool) });
    await colony.close();
    const error = await fail(colony, 'list_sessions', {});
    expect(error.code).toBe('INTERNAL_ERROR');
    expect(error.error).toMatch(/closed/);
    expect(errors).toContain('list_sessions');
  });

  it('exports the same tools as OpenAI and Anthropic schemas', () => {
    const colony = open();
    const contract = COLONY_TOOLS.filter((t) => t.surface === 'contract');
    expect(colony.toOpenAITools().map((t) => t.function.name)).toEqual(contract.map((t) => t.name));
    expect(colony.toAnthropicTools('core').map((t) => t.name)).toEqual(
      COLONY_TOOLS.filter((t) => t.core).map((t) => t.name),
    );
  });
});

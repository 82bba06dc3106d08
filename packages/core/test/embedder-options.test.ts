/**
 * openColony and embedders: the built-in hashing embedder by default, a caller's own
 * embedder used as given, and an embedder that cannot load or throws degrading search
 * to BM25 with a warning instead of failing anything. settings.search.alpha 1 leaves
 * search exactly as keywords rank it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type Colony, defaultSettings, type Embedder, hashingEmbedder, manualClock, openColony } from '../src/index';

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const fn of cleanups.splice(0).reverse()) fn();
});

function open(options: Parameters<typeof openColony>[0] = {}): Colony & { warned: string[] } {
  const home = mkdtempSync(join(tmpdir(), 'colony-embed-'));
  const warned: string[] = [];
  const colony = openColony({
    home,
    clock: manualClock(),
    receipts: false,
    onWarning: (m) => warned.push(m),
    ...options,
  });
  cleanups.push(async () => {
    await colony.close();
    rmSync(home, { recursive: true, force: true });
  });
  return Object.assign(colony, { warned });
}

async function seed(colony: Colony): Promise<void> {
  const thread = await colony.handleToolCall('task_thread', {
    repo_root: '/abs/repo',
    branch: 'main',
    session_id: 'claude-1',
    agent: 'claude',
  });
  if (!thread.ok) throw new Error(thread.text);
  const task_id = (thread.value as { task_id: number }).task_id;
  for (const content of ['stale claims', 'Release stale claims after relay timeout', 'stale claims claims claims']) {
    await colony.handleToolCall('task_post', { task_id, session_id: 'claude-1', kind: 'note', content });
  }
}

const search = (colony: Colony) => colony.memory.search({ query: 'releasing stale claims', limit: 10 });

describe('openColony embedders', () => {
  it('uses the hashing embedder by default and blends once vectors exist', async () => {
    const colony = open();
    await seed(colony);
    const keyword = await search(colony);
    expect(await colony.vectors.backfill()).toMatchObject({ embedder_id: 'hash-v1-256', embedded: 4 });
    const hybrid = await search(colony);
    expect(hybrid.map((h) => h.id).sort()).toEqual(keyword.map((h) => h.id).sort());
    expect(hybrid.map((h) => h.id)).not.toEqual(keyword.map((h) => h.id));
    expect(colony.warned).toEqual([]);
  });

  it('uses the embedder it is given', async () => {
    const inner = hashingEmbedder({ dims: 32 });
    let texts = 0;
    const mine: Embedder = {
      id: 'my-model-v2',
      dims: 32,
      embed: (list) => {
        texts += list.length;
        return inner.embed(list);
      },
    };
    const colony = open({ embedder: mine });
    await seed(colony);
    expect(await colony.vectors.backfill()).toMatchObject({ embedder_id: 'my-model-v2', dims: 32, embedded: 4 });
    expect(texts).toBe(4);
  });

  it('degrades to BM25 with a warning when the embedder cannot load', async () => {
    const colony = open({
      embedder: () => {
        throw new Error('model file missing');
      },
    });
    await seed(colony);
    const outcome = await colony.handleToolCall('search', { query: 'releasing stale claims' });
    expect(outcome.ok).toBe(true);
    expect(await colony.vectors.backfill()).toMatchObject({ embedded: 0, embedder_id: null });
    expect(colony.warned).toEqual([expect.stringMatching(/cannot load \(model file missing\).*BM25/)]);
    expect(colony.warnings).toEqual(colony.warned);
    const suggestion = await colony.handleToolCall('task_suggest_approach', { query: 'stale claims' });
    expect(
      suggestion.ok && (suggestion.value as { insufficient_data_reason: string }).insufficient_data_reason,
    ).toMatch(/Embeddings unavailable: embedder cannot load/);
  });

  it('with search.alpha 1 ranks by keywords alone, vectors or not', async () => {
    const keywordOnly = open({ settings: { ...defaultSettings(), search: { alpha: 1 } } });
    await seed(keywordOnly);
    const before = await search(keywordOnly);
    await keywordOnly.vectors.backfill();
    expect(await search(keywordOnly)).toEqual(before);
  });

  it('with embedder null turns vectors off without a warning', async () => {
    const colony = open({ embedder: null });
    await seed(colony);
    expect(await colony.vectors.backfill()).toMatchObject({
      embedded: 0,
      disabled_reason: expect.stringMatching(/off/),
    });
    expect(colony.warned).toEqual([]);
  });
});

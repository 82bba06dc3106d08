/**
 * The viewer's server without a browser: a real HTTP server on 127.0.0.1 over a real
 * store. Host header check, methods, paths, panel envelopes, the read-only tool
 * reader, and the Server-Sent Events stream (every panel on connect, then a changed
 * panel again after another write). The browser test (apps/cli) covers the page.
 */
import { mkdtempSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Colony, manualClock, openColony } from '@swarm/core';
import { countObservations, openStore } from '@swarm/storage';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readOnlyTools } from '../src/viewer/_reader';
import { startViewer, type ViewerHandle } from '../src/viewer/index';

const T0 = Date.UTC(2026, 3, 1, 12);
const dir = mkdtempSync(join(tmpdir(), 'colony-viewer-server-'));
const dbPath = join(dir, 'colony.db');
const clock = manualClock(T0);
let colony: Colony;
let viewer: ViewerHandle;

function get(
  path: string,
  host?: string,
  method = 'GET',
): Promise<{ status: number; body: string; headers: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = request(`${viewer.url}${path.replace(/^\//, '')}`, { method, headers: host ? { host } : {} }, (res) => {
      let body = '';
      res.on('data', (b: Buffer) => {
        body += b.toString();
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
    });
    req.on('error', reject);
    req.end();
  });
}

beforeAll(async () => {
  colony = openColony({ home: join(dir, 'home'), dbPath, clock, receipts: false, roots: [tmpdir()] });
  viewer = await startViewer({ colony, port: 0, refreshMs: 100, scope: { repoRoot: dir } });
});

afterAll(async () => {
  await viewer?.close();
  await colony?.close();
});

describe('viewer server', () => {
  it('binds 127.0.0.1 on a free port and serves the page, its files and the chart library', async () => {
    expect(viewer.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    const page = await get('/');
    expect(page.status).toBe(200);
    expect(page.body).toContain('<script type="module" src="/assets/viewer.js">');
    expect(page.headers['content-security-policy']).toContain("default-src 'none'");
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    const uplot = await get('/vendor/uplot.js');
    expect(uplot.status).toBe(200);
    expect(uplot.body).toContain('uPlot');
    expect((await get('/assets/viewer.css')).headers['content-type']).toBe('text/css; charset=utf-8');
  });

  it('answers 403 to any Host but 127.0.0.1:<port> or localhost:<port>, before routing', async () => {
    const port = viewer.port;
    for (const host of [
      'evil.example',
      `evil.example:${port}`,
      `127.0.0.1:${port + 1}`,
      `127.0.0.1`,
      `[::1]:${port}`,
    ]) {
      expect((await get('/api/plans', host)).status, host).toBe(403);
      expect((await get('/no/such', host)).status, host).toBe(403);
    }
    expect((await get('/', `LOCALHOST:${port}`)).status).toBe(200);
  });

  it('is read-only: 405 for writes, 404 for unknown paths, no path from the request reaches the disk', async () => {
    expect((await get('/api/plans', undefined, 'POST')).status).toBe(405);
    expect((await get('/api/plans', undefined, 'DELETE')).headers.allow).toBe('GET, HEAD');
    for (const path of ['/nope', '/api/nope', '/assets/../package.json', '/assets/%2e%2e/package.json', '/vendor/']) {
      expect((await get(path)).status, path).toBe(404);
    }
    const head = await get('/', undefined, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.body).toBe('');
  });

  it('answers each panel as an envelope; an empty store says so with empty lists', async () => {
    const plans = JSON.parse((await get('/api/plans')).body);
    expect(plans).toEqual({ panel: 'plans', generated_at: T0, data: { plans: [] } });
    const runtime = JSON.parse((await get('/api/runtime')).body);
    expect(runtime.data).toEqual({ repos: [{ repo_root: dir, session: null, plans: null, agents: [] }] });
    const savings = JSON.parse((await get('/api/savings')).body);
    expect(savings.data.hours).toHaveLength(24);
    expect(savings.data.totals.calls).toBe(0);
    const meta = JSON.parse((await get('/api/meta')).body);
    expect(meta.scope).toEqual({ repo_root: dir, session_id: null, agent: null, inbox: 'fleet' });
  });

  it('refuses to call a tool that writes, and unknown tools, without writing', async () => {
    const read = readOnlyTools(colony);
    const store = openStore({ path: dbPath });
    try {
      const before = countObservations(store);
      await expect(
        read('task_thread', { repo_root: dir, branch: 'main', session_id: 's1', agent: 'claude' }),
      ).rejects.toMatchObject({ code: 'READ_ONLY' });
      await expect(read('no_such_tool', {})).rejects.toMatchObject({ code: 'UNKNOWN_TOOL' });
      await expect(read('get_observations', { ids: [999] })).rejects.toMatchObject({
        code: 'OBSERVATION_NOT_FOUND',
      });
      expect(countObservations(store)).toBe(before);
    } finally {
      store.close();
    }
  });

  it('streams every panel on connect, then a panel again when a write changes it', async () => {
    const events: string[] = [];
    const stream = await new Promise<import('node:http').IncomingMessage>((resolve, reject) => {
      const req = request(`${viewer.url}api/events`, (res) => resolve(res));
      req.on('error', reject);
      req.end();
    });
    expect(stream.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    const seen = (pattern: RegExp) =>
      new Promise<void>((resolve) => {
        const check = () => {
          if (events.some((e) => pattern.test(e))) resolve();
          else setTimeout(check, 20);
        };
        check();
      });
    stream.on('data', (b: Buffer) => events.push(...b.toString().split('\n\n')));
    await seen(/"panel":"savings"/);
    for (const panel of ['lanes', 'runtime', 'plans', 'claims', 'inbox', 'savings']) {
      expect(events.some((e) => e.startsWith('event: panel') && e.includes(`"panel":"${panel}"`))).toBe(true);
    }
    await seen(/^event: clock/);
    // Another writer publishes a plan: the plans panel is sent again.
    const writer = openColony({ home: join(dir, 'home'), dbPath, clock, receipts: false, roots: [tmpdir()] });
    const published = await writer.handleToolCall('task_plan_publish', {
      repo_root: dir,
      slug: 'live-plan',
      session_id: 'queen-1',
      agent: 'claude',
      title: 'A live plan',
      problem: 'p',
      acceptance_criteria: ['a'],
      subtasks: [
        { title: 'First step', description: 'd', file_scope: ['a.ts'] },
        { title: 'Second step', description: 'd', file_scope: ['b.ts'], depends_on: [0] },
      ],
    });
    await writer.close();
    expect(published.ok, published.text).toBe(true);
    await seen(/"plan_slug":"live-plan"/);
    stream.destroy();
  });
});

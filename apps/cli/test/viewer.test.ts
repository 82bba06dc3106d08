/**
 * `colony viewer` in a real browser: a store seeded through the tool registry with a
 * manual clock, the viewer as a real process (its clock fixed by COLONY_CLOCK_FILE),
 * and Debian's headless Chromium driven by playwright-core. Each panel must render the
 * seeded rows, the savings chart must be drawn, a write from another process must show
 * up live, foreign Host headers get 403, and the screenshots must be pictures.
 * Without /usr/bin/chromium the test is skipped, except under CI=true, where it fails.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  HAVE_CHROMIUM,
  launchChromium,
  MUST_RUN,
  OUTPUT,
  pictureStats,
  startViewerProcess,
  type ViewerProcess,
} from './_browser';
import {
  BLOCKING_MESSAGE,
  CLAIMED_FILE,
  HANDOFF_SUMMARY,
  NEEDS_REPLY_MESSAGE,
  PLAN_SLUG,
  PLAN_TITLE,
  type SeededStore,
  SUBTASKS,
  seedViewerStore,
  T0,
  withStore,
} from './_viewer-seed';
import {
  agentEntry,
  claimSwarmSubtask,
  FATAL_REASON,
  SWARM_AGENTS,
  SWARM_PLAN,
  SWARM_SESSION,
  SWARM_SUBTASK,
  writeSwarmSession,
  writeSwarmStatus,
} from './_viewer-swarm';

const LIVE_AT = T0 + 30_000;
const LIVE_MESSAGE = 'Live: does the widget UI need the v2 schema?';
let seed: SeededStore;
let clockFile: string;
let viewer: ViewerProcess;
let browser: Browser;
let page: Page;
let swarm: ReturnType<typeof writeSwarmSession>;

const PANELS = ['lanes', 'runtime', 'plans', 'claims', 'inbox', 'savings'];
const viewerArgs = (...extra: string[]) => [
  '--db',
  seed.db,
  '--home',
  seed.home,
  '--repo-root',
  seed.repo,
  '--hours',
  '8',
  ...extra,
];
const panel = (name: string) => page.locator(`#panel-${name} .body`);
const ready = (name: string) => page.locator(`#panel-${name} .body[data-state="ready"]`).waitFor({ timeout: 15_000 });

/** A raw GET with a chosen Host header (fetch would not let us set it). */
function rawGet(url: string, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { host } }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end();
  });
}

describe.skipIf(!HAVE_CHROMIUM && !MUST_RUN)('colony viewer in headless Chromium', () => {
  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'colony-viewer-'));
    seed = await seedViewerStore(dir);
    // A live swarm session on the repository: this test process stands in for its session runner.
    await claimSwarmSubtask(seed);
    swarm = writeSwarmSession(seed.repo, seed.db, process.pid);
    writeSwarmStatus(seed.repo, swarm, SWARM_AGENTS);
    clockFile = join(dir, 'clock');
    writeFileSync(clockFile, String(T0));
    rmSync(OUTPUT, { recursive: true, force: true });
    mkdirSync(OUTPUT, { recursive: true });
    viewer = await startViewerProcess(viewerArgs(), { COLONY_CLOCK_FILE: clockFile, COLONY_HOME: seed.home });
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1360, height: 900 } });
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(e.message));
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(m.text());
    });
    await page.goto(viewer.url);
    for (const name of PANELS) await ready(name);
    expect(problems).toEqual([]);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    expect(await viewer?.stop()).toBe(0);
  });

  it('lists every lane with its activity, owner, branch and claims', async () => {
    const lanes = panel('lanes');
    const lane = (session: string, branch: string) =>
      lanes.locator(`tr[data-session="${session}"]`, { hasText: branch });
    expect(await lane('claude-1', 'spec/widget-page/sub-1').getAttribute('data-activity')).toBe('working');
    await expect(lane('claude-1', 'spec/widget-page/sub-1').textContent()).resolves.toContain(CLAIMED_FILE);
    expect(await lane('codex-1', 'main').getAttribute('data-activity')).toBe('thinking');
    expect(await lane('cursor-1', 'agent/cursor/docs').getAttribute('data-activity')).toBe('idle');
    expect(await lane('stale-1', 'agent/claude/stale').getAttribute('data-activity')).toBe('stalled');
    await expect(lane('stale-1', 'agent/claude/stale').textContent()).resolves.toContain('needs attention');
    expect(await lane('gone-1', 'agent/dead/old').getAttribute('data-activity')).toBe('dead');
    for (const activity of ['working', 'thinking', 'idle', 'stalled', 'dead']) {
      await expect(lanes.locator('.summary').textContent()).resolves.toContain(activity);
    }
  });

  it("shows the repository's swarm session: each agent's state, seq, errors, activity, stop reason and sub-task", async () => {
    const runtime = panel('runtime');
    const repo = runtime.locator(`[data-repo="${seed.repo}"]`);
    await expect(repo.locator('h3').textContent()).resolves.toContain(`Session ${SWARM_SESSION} active`);
    const summary = await repo.locator('.summary').textContent();
    expect(summary).toContain('started 20 min ago');
    expect(summary).toContain('base 4f1c2d3');
    expect(summary).toContain(`pid ${process.pid}`);
    // Both active plans of the repository, counted as `colony swarm status` counts them.
    for (const count of ['available 1', 'claimed 2', 'completed 1']) expect(summary).toContain(count);
    const row = (name: string) => repo.locator(`tr[data-agent="${name}"]`);
    const cells = (name: string) => row(name).locator('td').allTextContents();
    expect(await repo.locator('tr[data-agent]').evaluateAll((rows) => rows.map((r) => r.dataset.agent))).toEqual([
      'alpha',
      'beta',
      'supervisor',
    ]);
    expect(await cells('alpha')).toEqual([
      `alphaswarm-${SWARM_SESSION}-alpha`,
      'Running',
      '3',
      '0 / 1',
      '30 s ago',
      `#0 ${SWARM_SUBTASK} · ${SWARM_PLAN}`,
      '—',
    ]);
    expect(await cells('beta')).toEqual([
      `betaswarm-${SWARM_SESSION}-beta`,
      'CoolingDown',
      '2',
      '2 / 3',
      '1 min ago',
      'none',
      '—',
    ]);
    const supervisor = await cells('supervisor');
    expect(supervisor.slice(1, 5)).toEqual(['Stopped', '5', '5 / 5', '4 min ago']);
    expect(supervisor[6]).toBe(FATAL_REASON);
    // States are told apart by colour: running green, cooling down amber, stopped red.
    const tone = (name: string) => row(name).locator('.badge').getAttribute('class');
    expect(await tone('alpha')).toBe('badge working');
    expect(await tone('beta')).toBe('badge stalled');
    expect(await tone('supervisor')).toBe('badge dead');
    expect(await row('beta').locator('td.warn').textContent()).toBe('2 / 3');
  });

  it("shows an agent's state change from the session runner's status file without a reload", async () => {
    writeSwarmStatus(seed.repo, swarm, [
      SWARM_AGENTS[0]!,
      agentEntry('beta', 'Running', 3, [0, 3], 0),
      SWARM_AGENTS[2]!,
    ]);
    const beta = page.locator('#panel-runtime tr[data-agent="beta"][data-agent-state="Running"]');
    await beta.waitFor({ timeout: 10_000 });
    expect((await beta.locator('td').allTextContents()).slice(1, 5)).toEqual(['Running', '3', '0 / 3', '0 s ago']);
    expect(await beta.locator('.badge').getAttribute('class')).toBe('badge working');
    expect(await beta.locator('td.warn').count()).toBe(0);
  });

  it('shows every repository in scope: one without a session says so, one whose session runner died is not running', async () => {
    const bare = mkdtempSync(join(tmpdir(), 'colony-viewer-bare-'));
    const left = mkdtempSync(join(tmpdir(), 'colony-viewer-left-'));
    // The pid of a process that has exited (and been reaped): a crashed session runner's.
    const gone = spawnSync(process.execPath, ['-e', '']).pid;
    writeSwarmStatus(left, writeSwarmSession(left, seed.db, gone), SWARM_AGENTS);
    const both = await startViewerProcess(['--db', seed.db, '--home', seed.home], {
      COLONY_CLOCK_FILE: clockFile,
      COLONY_HOME: seed.home,
      COLONY_HIVEMIND_REPO_ROOTS: [bare, left].join(delimiter),
    });
    try {
      const other = await browser.newPage({ viewport: { width: 1360, height: 900 } });
      await other.goto(both.url);
      await other.locator('#panel-runtime .body[data-state="ready"]').waitFor({ timeout: 15_000 });
      const runtime = other.locator('#panel-runtime .body');
      expect(
        await runtime.locator('[data-repo]').evaluateAll((r) => r.map((e) => e.getAttribute('data-repo'))),
      ).toEqual([bare, left]);
      await expect(runtime.locator(`[data-repo="${bare}"] .empty`).textContent()).resolves.toBe(
        'No swarm session in this repository: colony swarm start runs one.',
      );
      const dead = runtime.locator(`[data-repo="${left}"]`);
      await expect(dead.locator('h3').textContent()).resolves.toContain(`Session ${SWARM_SESSION} not running`);
      await expect(dead.locator('.summary').textContent()).resolves.toContain(`pid ${gone} gone`);
      // The agents as the dead session runner last recorded them, said to be history.
      expect(await dead.locator('tr[data-agent]').count()).toBe(3);
      await expect(dead.locator('.caption').textContent()).resolves.toBe(
        'Agents as the session runner last recorded them.',
      );
      await other.locator('#panel-runtime').screenshot({ path: join(OUTPUT, 'viewer-runtime-repos.png') });
      await other.close();
    } finally {
      expect(await both.stop()).toBe(0);
      rmSync(bare, { recursive: true, force: true });
      rmSync(left, { recursive: true, force: true });
    }
  });

  it('shows fresh claims of every session and the hottest files', async () => {
    const claims = panel('claims');
    await expect(claims.locator(`tr[data-file="${CLAIMED_FILE}"]`).textContent()).resolves.toContain('claude');
    await expect(claims.locator('tr[data-file="apps/api/src/widgets.ts"]').textContent()).resolves.toContain(
      'claude-1',
    );
    await expect(claims.locator('tr[data-file="apps/web/src/stale.ts"]').textContent()).resolves.toContain('stale-1');
    // Claims a minute old are hotter than the stale session's half an hour old one.
    const heat = await claims
      .locator('tr[data-heat-file]')
      .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-heat-file')));
    expect(heat.slice(0, 2).sort()).toEqual(['apps/api/src/widgets.ts', CLAIMED_FILE]);
    expect(heat.at(-1)).toBe('apps/web/src/stale.ts');
  });

  it('shows the fleet inbox: blocking first, then needs_reply, the pending handoff and the stalled lane', async () => {
    const inbox = panel('inbox');
    await expect(inbox.locator('.summary').textContent()).resolves.toBe(
      'Fleet view: 2 unread messages, 1 pending handoff or relay, 1 stalled lane holding work',
    );
    const kinds = await inbox
      .locator('tr[data-inbox-kind]')
      .evaluateAll((rows) =>
        rows.map((r) => `${r.getAttribute('data-inbox-kind')}: ${r.querySelector('td')?.textContent}`),
      );
    expect(kinds).toEqual([
      'message: blocking',
      'message: needs reply',
      'handoff: handoff',
      'stalled_lane: stalled lane',
    ]);
    // Agent text is shown as text: the <b> in the message is not markup.
    await expect(inbox.textContent()).resolves.toContain(BLOCKING_MESSAGE);
    expect(await inbox.locator('b', { hasText: 'now' }).count()).toBe(0);
    await expect(inbox.textContent()).resolves.toContain(NEEDS_REPLY_MESSAGE);
    await expect(inbox.textContent()).resolves.toContain(HANDOFF_SUMMARY);
  });

  it("shows one session's attention_inbox with --session and --agent", async () => {
    const own = await startViewerProcess(viewerArgs('--session', 'claude-1', '--agent', 'claude'), {
      COLONY_CLOCK_FILE: clockFile,
      COLONY_HOME: seed.home,
    });
    try {
      const other = await browser.newPage();
      await other.goto(own.url);
      await other.locator('#panel-inbox .body[data-state="ready"]').waitFor({ timeout: 15_000 });
      await expect(other.locator('#scope').textContent()).resolves.toContain('inbox: claude (claude-1)');
      const inbox = other.locator('#panel-inbox .body');
      await expect(inbox.locator('.summary').textContent()).resolves.toContain(
        'claude (claude-1): 1 unread (1 blocking',
      );
      await expect(inbox.locator('tr[data-inbox-kind="message"]').textContent()).resolves.toContain(BLOCKING_MESSAGE);
      // claude-1 sent the needs_reply message: it waits for codex, not here.
      await expect(inbox.textContent()).resolves.not.toContain(NEEDS_REPLY_MESSAGE);
      await other.close();
    } finally {
      expect(await own.stop()).toBe(0);
    }
  });

  it('shows the plan as waves, each sub-task with its status and claimer', async () => {
    const plan = page.locator(`[data-plan="${PLAN_SLUG}"]`);
    await expect(plan.locator('h3').textContent()).resolves.toContain(PLAN_TITLE);
    expect(await plan.locator('.wave h4').allTextContents()).toEqual(['Wave 1', 'Wave 2', 'Wave 3']);
    const card = (i: number) => plan.locator(`[data-subtask="${i}"]`);
    await expect(card(0).textContent()).resolves.toContain(SUBTASKS[0]);
    expect(await card(0).getAttribute('class')).toContain('completed');
    expect(await card(1).getAttribute('class')).toContain('claimed');
    await expect(card(1).textContent()).resolves.toContain('by claude · claude-1');
    expect(await card(2).getAttribute('class')).toContain('available');
    await expect(card(2).textContent()).resolves.toContain('claimable now');
    await expect(card(3).textContent()).resolves.toContain('after #1, #2');
    await expect(card(3).textContent()).resolves.not.toContain('claimable now');
    // Wave 2 holds sub-tasks 1 and 2.
    expect(await plan.locator('[data-wave="1"] [data-subtask]').count()).toBe(2);
  });

  it('charts the receipts per hour and lists the busiest tools', async () => {
    const calls = Object.values(seed.receiptsPerHour).reduce((a, b) => a + b, 0);
    await expect(panel('savings').locator('.summary').textContent()).resolves.toContain(`${calls} tool calls in 8 h`);
    await expect(panel('savings').locator('[data-operation="search"]').textContent()).resolves.toContain('42');
    // The chart is a canvas uPlot drew on: many painted pixels, some in the "tokens in" blue.
    const drawn = await page.evaluate(() => {
      const canvas = document.querySelector<HTMLCanvasElement>('#panel-savings canvas');
      if (!canvas) return null;
      const { data } = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height);
      let painted = 0;
      let blue = 0;
      for (let i = 0; i < data.length; i += 4) {
        if ((data[i + 3] as number) > 0) painted++;
        if (
          Math.abs((data[i] as number) - 47) < 30 &&
          Math.abs((data[i + 1] as number) - 111) < 30 &&
          (data[i + 2] as number) > 180
        )
          blue++;
      }
      return { width: canvas.width, painted, blue };
    });
    expect(drawn).not.toBeNull();
    expect(drawn!.width).toBeGreaterThan(600);
    expect(drawn!.painted).toBeGreaterThan(5_000);
    expect(drawn!.blue).toBeGreaterThan(100);
    expect(await page.locator('#panel-savings .u-legend').textContent()).toContain('tokens in');
  });

  it('shows a write from another process without a reload', async () => {
    writeFileSync(clockFile, String(LIVE_AT));
    await withStore(seed, LIVE_AT, async (call) => {
      await call('task_plan_claim_subtask', {
        plan_slug: PLAN_SLUG,
        subtask_index: 2,
        session_id: 'cursor-1',
        agent: 'cursor',
      });
      const main = await call('task_thread', {
        repo_root: seed.repo,
        branch: 'main',
        session_id: 'cursor-1',
        agent: 'cursor',
      });
      await call('task_message', {
        task_id: main.task_id,
        session_id: 'cursor-1',
        agent: 'cursor',
        to_agent: 'codex',
        urgency: 'needs_reply',
        content: LIVE_MESSAGE,
      });
    });
    const card = page.locator(`[data-plan="${PLAN_SLUG}"] [data-subtask="2"]`);
    await card.locator('text=by cursor · cursor-1').waitFor({ timeout: 10_000 });
    expect(await card.getAttribute('class')).toContain('claimed');
    await page.locator('#panel-claims tr[data-file="apps/web/src/widgets.tsx"]', { hasText: 'cursor' }).waitFor();
    await page.locator('#panel-inbox tr', { hasText: LIVE_MESSAGE }).waitFor();
    await page.locator('#panel-lanes tr[data-session="cursor-1"][data-activity="working"]').first().waitFor();
    await expect(page.locator('#live-text').textContent()).resolves.toMatch(/live · store time 12:30:\d\d UTC/);
  });

  it('answers 403 to a foreign Host header, 404 to unknown paths, 405 to writes', async () => {
    const port = new URL(viewer.url).port;
    expect(await rawGet(viewer.url, 'evil.example')).toBe(403);
    expect(await rawGet(viewer.url, `evil.example:${port}`)).toBe(403);
    expect(await rawGet(`${viewer.url}api/plans`, `attacker.test:${port}`)).toBe(403);
    expect(await rawGet(viewer.url, `localhost:${port}`)).toBe(200);
    const res = await page.request.get(`${viewer.url}no/such/page`);
    expect(res.status()).toBe(404);
    expect((await page.request.get(`${viewer.url}api/nope`)).status()).toBe(404);
    expect((await page.request.post(`${viewer.url}api/plans`, { data: {} })).status()).toBe(405);
    const plans = await page.request.get(`${viewer.url}api/plans`);
    expect(plans.headers()['content-security-policy']).toContain("script-src 'self'");
  });

  it('takes screenshots that are pictures, not blanks', async () => {
    const full = join(OUTPUT, 'viewer-full.png');
    await page.screenshot({ path: full, fullPage: true });
    const stats = pictureStats(full);
    expect(stats.width).toBe(1360);
    expect(stats.height).toBeGreaterThan(900);
    expect(stats.height).toBeLessThan(8_000);
    expect(stats.colours).toBeGreaterThan(40);
    expect(stats.luminanceSd).toBeGreaterThan(10);
    for (const name of PANELS) {
      const path = join(OUTPUT, `viewer-${name}.png`);
      await page.locator(`#panel-${name}`).screenshot({ path });
      const s = pictureStats(path);
      expect(s.width, name).toBeGreaterThan(300);
      expect(s.height, name).toBeGreaterThan(40);
      expect(s.inkShare, name).toBeGreaterThan(0.01);
    }
  });
});

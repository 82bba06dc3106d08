/**
 * The viewer beyond its panels (issue 16): the first paint carries the data (no
 * "Loading…", no request of the page's own before it shows the panels), a lane, a
 * claim, an inbox item and a search hit each open their task thread in the side view
 * (linked as #task/<id>), the thread and search endpoints refuse bad input with a
 * status and a code, and on a phone-sized screen the page is one column with nothing
 * wider than the screen. Real `colony viewer` process, Debian's headless Chromium.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
  NEEDS_REPLY_MESSAGE,
  type SeededStore,
  seedViewerStore,
  T0,
} from './_viewer-seed';

const PANELS = ['lanes', 'runtime', 'plans', 'claims', 'inbox', 'savings'];
let seed: SeededStore;
let viewer: ViewerProcess;
let browser: Browser;
let page: Page;
/** The page's own requests to the panel endpoints while it loads. */
const panelRequests: string[] = [];

function get(url: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    request(url, (res) => {
      let body = '';
      res.on('data', (b: Buffer) => {
        body += b.toString();
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    })
      .on('error', reject)
      .end();
  });
}

const drawer = () => page.locator('#thread');
async function openedThread(): Promise<string> {
  await page.locator('#thread .body[data-state="ready"]').waitFor({ timeout: 10_000 });
  return (await drawer().textContent()) ?? '';
}
async function closeThread(): Promise<void> {
  await page.locator('#thread-close').click();
  await drawer().waitFor({ state: 'hidden', timeout: 5_000 });
}

describe.skipIf(!HAVE_CHROMIUM && !MUST_RUN)('colony viewer: first paint, threads, search, narrow screens', () => {
  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'colony-viewer-nav-'));
    seed = await seedViewerStore(dir);
    const clockFile = join(dir, 'clock');
    writeFileSync(clockFile, String(T0));
    mkdirSync(OUTPUT, { recursive: true });
    const args = ['--db', seed.db, '--home', seed.home, '--repo-root', seed.repo, '--hours', '8'];
    viewer = await startViewerProcess(args, { COLONY_CLOCK_FILE: clockFile, COLONY_HOME: seed.home });
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1360, height: 900 } });
    page.on('request', (r) => {
      const path = new URL(r.url()).pathname;
      if (PANELS.some((p) => path === `/api/${p}`)) panelRequests.push(path);
    });
    await page.goto(viewer.url, { waitUntil: 'domcontentloaded' });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    expect(await viewer?.stop()).toBe(0);
  });

  it('serves the first paint with every panel summarised, never "Loading…", and agents\' text escaped', async () => {
    const { status, body } = await get(viewer.url);
    expect(status).toBe(200);
    expect(body).not.toContain('Loading…');
    expect(body).not.toContain('>loading…<');
    expect(body).toMatch(
      /data-panel-body="lanes" data-state="boot">7 lanes: 1 working, 2 thinking, 1 idle, 1 stalled, 2 dead</,
    );
    expect(body).toMatch(/data-panel-body="plans" data-state="boot">1 published plan</);
    expect(body).toMatch(/data-panel-body="runtime" data-state="boot">0 active swarm sessions</);
    expect(body).toMatch(/data-panel-body="inbox" data-state="boot">4 items waiting</);
    expect(body).toContain(`repo ${seed.repo} · inbox: fleet view`);
    // The boot JSON holds the blocking message; its markup cannot end the script element.
    // (Three script elements: the chart library, the page's module and the boot JSON.)
    expect(body.split('</script>').length - 1).toBe(3);
    expect(body).not.toContain('<b>now</b>');
    expect(body).toContain('\\u003cb>now\\u003c/b>');
  });

  it('renders every panel from the data sent with the page, without asking for it again', async () => {
    for (const name of PANELS) {
      await page.locator(`#panel-${name} .body[data-state="ready"]`).waitFor({ timeout: 10_000 });
    }
    expect(panelRequests).toEqual([]);
  });

  it('opens the thread of a lane, a claim and an inbox item, linked as #task/<id>', async () => {
    await page.locator('#panel-lanes tr[data-session="codex-1"]', { hasText: 'main' }).click();
    const mainThread = await openedThread();
    await page.screenshot({ path: join(OUTPUT, 'viewer-thread.png') });
    expect(mainThread).toContain('Widget page: coordination');
    expect(mainThread).toContain(BLOCKING_MESSAGE); // as text, tags and all
    expect(mainThread).toContain(NEEDS_REPLY_MESSAGE);
    expect(page.url()).toMatch(/#task\/\d+$/);
    const mainId = page.url().split('#task/')[1];
    await closeThread();

    await page.locator(`#panel-claims tr[data-file="${CLAIMED_FILE}"]`).click();
    expect(await openedThread()).toContain('Build widget API');
    expect(page.url()).not.toContain(`#task/${mainId}`);
    await page.goBack();
    await drawer().waitFor({ state: 'hidden', timeout: 5_000 });

    await page.locator('#panel-inbox tr[data-inbox-kind="message"]').first().click();
    expect(await openedThread()).toContain('Widget page: coordination');
    expect(page.url()).toContain(`#task/${mainId}`);
    await closeThread();
  });

  it('opens a thread from its address, and says so when the task does not exist', async () => {
    const id = Number(
      (await page.locator('#panel-lanes tr[data-session="codex-1"]').first().getAttribute('data-task-id')) ?? 0,
    );
    await page.goto(`${viewer.url}#task/${id}`);
    expect(await openedThread()).toContain('Widget page: coordination');
    await page.goto(`${viewer.url}#task/987654`);
    await page.locator('#thread .body[data-state="error"]').waitFor({ timeout: 10_000 });
    expect(await drawer().textContent()).toContain('TASK_NOT_FOUND');
    await closeThread();
  });

  it('searches memory and opens a hit on a thread', async () => {
    await page.locator('#search-q').fill('widget schema version');
    await page.locator('#search button[type="submit"]').click();
    const results = page.locator('#search-results .body[data-state="ready"]');
    await results.waitFor({ timeout: 10_000 });
    const hit = results.locator('li[data-task-id]').first();
    expect(await hit.textContent()).toContain('schema');
    await hit.click();
    expect(await openedThread()).toContain(NEEDS_REPLY_MESSAGE);
    await closeThread();
    await page.locator('#search-q').fill('zzqx-nothing-matches');
    await page.locator('#search button[type="submit"]').click();
    await page
      .locator('#search-results .body[data-state="ready"]', { hasText: 'Nothing in memory matches' })
      .waitFor({ timeout: 10_000 });
  });

  it('refuses bad thread and search requests with a status and a code', async () => {
    const cases: [string, number, string][] = [
      ['api/thread?task_id=abc', 400, 'BAD_REQUEST'],
      ['api/thread?task_id=-1', 400, 'BAD_REQUEST'],
      ['api/thread', 400, 'BAD_REQUEST'],
      ['api/thread?task_id=987654', 404, 'TASK_NOT_FOUND'],
      ['api/search?q=', 400, 'BAD_REQUEST'],
      [`api/search?q=${'x'.repeat(201)}`, 400, 'BAD_REQUEST'],
    ];
    for (const [path, status, code] of cases) {
      const answer = await get(`${viewer.url}${path}`);
      expect([path, answer.status]).toEqual([path, status]);
      expect(JSON.parse(answer.body).error.code).toBe(code);
    }
    expect((await get(`${viewer.url}api/lanes`)).status).toBe(200); // still serving
  });

  it('lays the page out in one column on a phone-sized screen, nothing wider than the screen', async () => {
    const phone = await browser.newPage({ viewport: { width: 390, height: 844 } });
    try {
      await phone.goto(viewer.url);
      await phone.locator('#panel-lanes .body[data-state="ready"]').waitFor({ timeout: 10_000 });
      const layout = await phone.evaluate(() => ({
        scrollWidth: document.documentElement.scrollWidth,
        thead: getComputedStyle(document.querySelector('#panel-lanes thead') as Element).display,
        label: getComputedStyle(document.querySelector('#panel-lanes td[data-label="Branch"]') as Element, '::before')
          .content,
        lefts: [...document.querySelectorAll('main > section.panel:not([hidden])')].map((s) =>
          Math.round(s.getBoundingClientRect().left),
        ),
      }));
      expect(layout.scrollWidth).toBeLessThanOrEqual(390);
      expect(new Set(layout.lefts).size).toBe(1);
      // Each table row is a card, each value under its column's name.
      expect(layout.thead).toBe('none');
      expect(layout.label).toBe('"Branch: "');
      const shot = join(OUTPUT, 'viewer-phone.png');
      await phone.screenshot({ path: shot, fullPage: false });
      expect(pictureStats(shot).colours).toBeGreaterThan(8);
    } finally {
      await phone.close();
    }
  });
});

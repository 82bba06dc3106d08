/**
 * The seed-000 work queue across real OS processes: eight colony-mcp servers on one
 * database drain 2,000 items. Two consumers abandon some items; one holds an item
 * while the test moves the servers' clock (COLONY_CLOCK_FILE) past the lease mid-run,
 * so that item is re-issued to another consumer under the first one's nose. Every item is completed exactly once, and no item is ever
 * held by two consumers at once: a re-issue always comes after the previous lease ended.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type Server, serverFleet, setClock, tempDir } from './_harness';

const ITEMS = 2_000;
const CONSUMERS = 8;
const LEASE_SEC = 60;
const T0 = Date.UTC(2026, 3, 1);

interface Issue {
  readonly id: string;
  readonly agent: string;
  readonly leaseUntil: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('one work queue, eight server processes', () => {
  const { start, closeAll } = serverFleet();
  afterAll(closeAll);

  it('completes each of 2,000 items exactly once, re-issuing expired leases and never doubling one', async () => {
    const dir = tempDir();
    const db = join(dir, 'colony.db');
    const clockFile = join(dir, 'clock');
    let now = T0;
    setClock(clockFile, now);
    // Rate limits are per process and would only slow the drain down here.
    writeFileSync(join(dir, 'settings.json'), JSON.stringify({ rateLimits: { '*': false } }));
    const servers = await Promise.all(
      Array.from({ length: CONSUMERS }, () => start(db, dir, { toolset: 'framework', clockFile })),
    );

    // Enqueue from every process at once.
    const per = ITEMS / CONSUMERS;
    const enqueued = await Promise.all(
      servers.map(async (server, k) => {
        const ids: string[] = [];
        for (let i = 0; i < per; i++) {
          const r = await server.call('coord_enqueue', { agent: `producer-${k}`, kind: 'work', payload: { k, i } });
          expect(r.isError).toBe(false);
          ids.push(r.payload.id);
        }
        return ids;
      }),
    );
    expect(new Set(enqueued.flat()).size).toBe(ITEMS);

    const issues: Issue[] = [];
    const completions = new Map<string, string[]>();
    const refusals: Record<string, number> = {};
    const idle = new Array<boolean>(CONSUMERS).fill(false);
    let finished = false;
    let jumpedMidRun = false;
    /** The item the slow consumer sits on across the clock jump. */
    let held: string | undefined;

    const consume = async (server: Server, k: number) => {
      const agent = `consumer-${k}`;
      const flaky = k < 2;
      let taken = 0;
      while (!finished) {
        const next = await server.call('coord_next', { agent, lease_sec: LEASE_SEC });
        expect(next.isError, next.text).toBe(false);
        const item = next.payload.item;
        if (!item) {
          idle[k] = true;
          await sleep(20);
          continue;
        }
        idle[k] = false;
        expect(item.claimed_by).toBe(agent);
        issues.push({ id: item.id, agent, leaseUntil: item.lease_until });
        // A flaky consumer walks away from every seventh item it takes, lease and all.
        if (flaky && ++taken % 7 === 0) continue;
        // The slow consumer sits on its 20th item until the clock has jumped and the
        // item went to someone else; its completion then comes too late.
        if (k === 2 && ++taken === 20) {
          held = item.id;
          while (!finished && !issues.some((i) => i.id === item.id && i.agent !== agent)) await sleep(10);
        }
        const done = await server.call('coord_complete', { agent, id: item.id, result: { by: agent } });
        if (done.isError) {
          refusals[done.payload.code] = (refusals[done.payload.code] ?? 0) + 1;
          expect(['LEASE_NOT_HELD', 'QUEUE_ITEM_DONE']).toContain(done.payload.code);
        } else {
          completions.set(item.id, [...(completions.get(item.id) ?? []), agent]);
        }
      }
    };

    // The clock: one jump past the lease while everyone is busy, then one whenever the
    // queue is drained but abandoned items still hold leases.
    const drive = async () => {
      const deadline = Date.now() + 150_000;
      while (Date.now() < deadline) {
        await sleep(25);
        const status = (await servers[0]!.call('coord_status', { agent: 'observer' })).payload;
        if (status.counts.done === ITEMS) break;
        if (!jumpedMidRun && completions.size >= ITEMS * 0.4 && held !== undefined) {
          jumpedMidRun = true;
          now += (LEASE_SEC + 1) * 1000;
          setClock(clockFile, now);
        } else if (status.counts.queued === 0 && status.counts.claimed > 0 && idle.every(Boolean)) {
          now += (LEASE_SEC + 1) * 1000;
          setClock(clockFile, now);
        }
      }
      finished = true;
    };

    await Promise.all([drive(), ...servers.map((s, k) => consume(s, k))]);
    expect(jumpedMidRun).toBe(true);
    // The held item's first holder was refused; its new holder completed it.
    expect((refusals.LEASE_NOT_HELD ?? 0) + (refusals.QUEUE_ITEM_DONE ?? 0)).toBeGreaterThanOrEqual(1);
    expect(completions.get(held!)).not.toEqual(['consumer-2']);

    // Exactly once.
    expect(completions.size).toBe(ITEMS);
    for (const id of enqueued.flat()) expect(completions.get(id), `item ${id}`).toHaveLength(1);
    const status = await servers[3]!.call('coord_status', { agent: 'observer' });
    expect(status.payload).toMatchObject({ length: 0, front: null, counts: { queued: 0, claimed: 0, done: ITEMS } });

    // Never doubled: each re-issue of an item starts no earlier than the previous lease ended.
    const byItem = new Map<string, Issue[]>();
    for (const issue of issues) byItem.set(issue.id, [...(byItem.get(issue.id) ?? []), issue]);
    let reissued = 0;
    for (const [id, list] of byItem) {
      list.sort((a, b) => a.leaseUntil - b.leaseUntil);
      for (let i = 1; i < list.length; i++) {
        const issuedAt = list[i]!.leaseUntil - LEASE_SEC * 1000;
        expect(issuedAt, `item ${id} re-issued to ${list[i]!.agent} under a live lease`).toBeGreaterThanOrEqual(
          list[i - 1]!.leaseUntil,
        );
        reissued++;
      }
    }
    expect(byItem.size).toBe(ITEMS);
    expect(reissued).toBeGreaterThan(0);
    for (const server of servers) expect(server.stderr()).not.toMatch(/SQLITE_BUSY|database is locked|internal error/i);
  }, 240_000);
});

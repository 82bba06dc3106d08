/**
 * task_link, task_links, task_unlink: one bidirectional link per pair, idempotent,
 * visible from either side, with an observation for each change.
 */
import { countTaskLinks, getObservation } from '@swarm/storage';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFixture, type Fixture, START } from './_fixture';

const REPO = '/abs/link-repo';

let fx: Fixture;
let api: number;
let web: number;
let docs: number;
beforeEach(async () => {
  fx = createFixture();
  const open = async (branch: string) =>
    (
      await fx.ok<{ task_id: number }>('task_thread', {
        repo_root: REPO,
        branch,
        session_id: 'claude-1',
        agent: 'claude',
      })
    ).task_id;
  api = await open('api');
  web = await open('web');
  docs = await open('docs');
});
afterEach(() => fx.close());

const written = () => ({ observations: fx.observations(), links: countTaskLinks(fx.store) });

describe('task_link', () => {
  it('links two threads once, stored low/high whichever side names it', async () => {
    fx.clock.advance(30);
    const link = await fx.ok('task_link', {
      task_id: web,
      other_task_id: api,
      session_id: 'claude-1',
      note: 'frontend task depends on API contract',
    });
    expect(link).toEqual({
      low_id: api,
      high_id: web,
      created_at: START + 30,
      created_by: 'claude-1',
      note: 'frontend task depends on API contract',
    });
    const timeline = await fx.ok<Array<{ id: number; kind: string }>>('task_timeline', { task_id: web });
    expect(timeline[0]?.kind).toBe('task_link');
    expect(getObservation(fx.store, timeline[0]!.id)?.metadata).toEqual({
      other_task_id: api,
      note: 'frontend task depends on API contract',
    });

    const before = written();
    fx.clock.advance(30);
    const again = await fx.ok('task_link', { task_id: api, other_task_id: web, session_id: 'claude-1', note: 'new' });
    expect(again).toEqual(link);
    expect(written()).toEqual(before);
  });

  it('refuses self links and unknown tasks, writing nothing', async () => {
    const before = written();
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ other_task_id: api }, 'TASK_LINK_SELF'],
      [{ other_task_id: 9999 }, 'TASK_NOT_FOUND'],
      [{ task_id: 9999 }, 'TASK_NOT_FOUND'],
      [{ note: 'x'.repeat(501) }, 'INVALID_PARAMETERS'],
    ];
    for (const [override, code] of cases) {
      const error = await fx.fail('task_link', {
        task_id: api,
        other_task_id: web,
        session_id: 'claude-1',
        ...override,
      });
      expect(error.code, JSON.stringify(override)).toBe(code);
    }
    expect(written()).toEqual(before);
  });
});

describe('task_links', () => {
  it('lists each link from either side with the other task, newest first', async () => {
    await fx.ok('task_link', { task_id: api, other_task_id: web, session_id: 'claude-1' });
    fx.clock.advance(10);
    await fx.ok('task_link', { task_id: docs, other_task_id: api, session_id: 'claude-1', note: 'document it' });
    const fromApi = await fx.ok<Array<Record<string, unknown>>>('task_links', { task_id: api });
    expect(fromApi).toEqual([
      {
        other_task: { id: docs, repo_root: REPO, branch: 'docs', title: null, status: 'active' },
        low_id: api,
        high_id: docs,
        created_at: START + 10,
        created_by: 'claude-1',
        note: 'document it',
      },
      {
        other_task: { id: web, repo_root: REPO, branch: 'web', title: null, status: 'active' },
        low_id: api,
        high_id: web,
        created_at: START,
        created_by: 'claude-1',
        note: null,
      },
    ]);
    const fromWeb = await fx.ok<Array<{ other_task: { id: number } }>>('task_links', { task_id: web });
    expect(fromWeb.map((l) => l.other_task.id)).toEqual([api]);
    expect((await fx.fail('task_links', { task_id: 9999 })).code).toBe('TASK_NOT_FOUND');
  });
});

describe('task_unlink', () => {
  it('removes a link from either side, then answers removed: false', async () => {
    await fx.ok('task_link', { task_id: api, other_task_id: web, session_id: 'claude-1' });
    const before = written();
    expect(await fx.ok('task_unlink', { task_id: web, other_task_id: api, session_id: 'claude-1' })).toEqual({
      removed: true,
    });
    expect(written()).toEqual({ observations: before.observations + 1, links: before.links - 1 });
    const timeline = await fx.ok<Array<{ kind: string }>>('task_timeline', { task_id: web });
    expect(timeline[0]?.kind).toBe('task_unlink');
    expect(await fx.ok('task_unlink', { task_id: api, other_task_id: web })).toEqual({ removed: false });
    expect(await fx.ok('task_links', { task_id: api })).toEqual([]);
  });

  it('removes without an audit row when no session is named, and refuses unknown ids', async () => {
    await fx.ok('task_link', { task_id: api, other_task_id: web, session_id: 'claude-1' });
    const before = written();
    expect(await fx.ok('task_unlink', { task_id: api, other_task_id: web })).toEqual({ removed: true });
    expect(written()).toEqual({ observations: before.observations, links: before.links - 1 });
    await fx.ok('task_link', { task_id: api, other_task_id: web, session_id: 'claude-1' });
    const linked = written();
    expect((await fx.fail('task_unlink', { task_id: api, other_task_id: 9999 })).code).toBe('TASK_NOT_FOUND');
    expect((await fx.fail('task_unlink', { task_id: api, other_task_id: 999_999, session_id: 'ghost' })).code).toBe(
      'TASK_NOT_FOUND',
    );
    expect(written()).toEqual(linked);
  });
});

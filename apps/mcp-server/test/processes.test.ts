/**
 * Race-safety across real OS processes: every IDE spawns its own server, all on one
 * database file (or, in the mcp-server-pg project, one PostgreSQL database). Writers never
 * see SQLITE_BUSY; readers see committed writes.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ON_POSTGRES } from './_backend';
import { type Server, serverFleet, tempDir } from './_harness';

const REPO = '/abs/race-repo';
/** PostgreSQL's writes make a dozen round trips where SQLite's make none: more time on a busy CI machine. */
const TIMEOUT_MS = ON_POSTGRES ? 120_000 : 30_000;

describe('several server processes on one database', () => {
  const { start, closeAll } = serverFleet();
  afterEach(closeAll);

  it(
    'lets two processes write at once, and a third process read what both committed',
    async () => {
      const dir = tempDir();
      const db = join(dir, 'colony.db');
      const [a, b] = await Promise.all([start(db, dir), start(db, dir)]);
      const ta = await a!.call('task_thread', {
        repo_root: REPO,
        branch: 'main',
        session_id: 'claude-a',
        agent: 'claude',
      });
      const tb = await b!.call('task_thread', {
        repo_root: REPO,
        branch: 'main',
        session_id: 'codex-b',
        agent: 'codex',
      });
      expect(tb.payload.task_id).toBe(ta.payload.task_id);
      const taskId = ta.payload.task_id as number;
      const post = (s: Server, session: string, i: number) =>
        s.call('task_post', {
          task_id: taskId,
          session_id: session,
          kind: 'note',
          content: `${session} concurrent note ${i}`,
        });
      const results = await Promise.all(
        Array.from({ length: 150 }, (_, i) => [post(a!, 'claude-a', i), post(b!, 'codex-b', i)]).flat(),
      );
      const failures = results.filter((r) => r.isError);
      expect(failures).toEqual([]);
      expect(new Set(results.map((r) => r.payload.id)).size).toBe(300);

      const reader = await start(db, dir);
      const timeline = await reader.call('task_timeline', { task_id: taskId, limit: 200 });
      expect(timeline.payload).toHaveLength(200);
      const fromA = await reader.call('task_updates_since', {
        task_id: taskId,
        session_id: 'codex-b',
        since_ts: 0,
        limit: 200,
      });
      expect(fromA.payload.filter((u: { kind: string }) => u.kind === 'note')).toHaveLength(150);
      const lastOfB = results.at(-1)!.payload.id as number;
      const [body] = (await reader.call('get_observations', { ids: [lastOfB] })).payload;
      expect(body.content).toBe('codex-b concurrent note 149');
      expect(a!.stderr() + b!.stderr()).not.toMatch(/SQLITE_BUSY|database is locked/i);
    },
    TIMEOUT_MS,
  );

  it(
    'starts eight servers at once on a fresh file, and each can write at once',
    async () => {
      const dir = tempDir();
      const db = join(dir, 'fresh.db');
      const fleet = await Promise.all(Array.from({ length: 8 }, () => start(db, dir)));
      const opened = await Promise.all(
        fleet.map((s, i) =>
          s.call('task_thread', { repo_root: REPO, branch: 'main', session_id: `codex-${i}`, agent: 'codex' }),
        ),
      );
      expect(opened.filter((r) => r.isError)).toEqual([]);
      expect(new Set(opened.map((r) => r.payload.task_id)).size).toBe(1);
      expect(opened.filter((r) => r.payload.created)).toHaveLength(1);
      for (const s of fleet) expect(s.stderr()).not.toMatch(/SQLITE_BUSY|database is locked/i);
    },
    TIMEOUT_MS,
  );

  it(
    'writes a retried idempotent post once when eight processes race the same key',
    async () => {
      const dir = tempDir();
      const db = join(dir, 'colony.db');
      const fleet = await Promise.all(Array.from({ length: 8 }, () => start(db, dir)));
      const opened = await fleet[0]!.call('task_thread', {
        repo_root: REPO,
        branch: 'main',
        session_id: 'claude-x',
        agent: 'claude',
      });
      const args = {
        task_id: opened.payload.task_id,
        session_id: 'claude-x',
        kind: 'decision',
        content: 'ship the retry-safe path',
        idempotency_key: 'k-race',
      };
      const answers = await Promise.all(fleet.map((s) => s.call('task_post', args)));
      expect(answers.filter((r) => r.isError)).toEqual([]);
      expect(new Set(answers.map((r) => r.payload.id)).size).toBe(1);
      const timeline = await fleet[1]!.call('task_timeline', { task_id: opened.payload.task_id });
      expect(timeline.payload.filter((e: { kind: string }) => e.kind === 'decision')).toHaveLength(1);
    },
    TIMEOUT_MS,
  );
});

/**
 * The dialect-neutral builders of `src/where/`: each takes either dialect's table (the
 * sqlite-core schema or its pg-core mirror `pgTables`) and renders the same condition on
 * both, the only difference being the parameter markers (`?` vs `$n`). The row values
 * they build are pure: checked directly.
 */
import { type SQL, sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { SQLiteSyncDialect } from 'drizzle-orm/sqlite-core';
import { describe, expect, it } from 'vitest';
import { pgTables } from '../src/pg/schema';
import * as schema from '../src/schema';
import { placeholders } from '../src/where/_columns';
import { definedOnly, eqIf, oneIn, pendingOne } from '../src/where/_common';
import { batonWhere } from '../src/where/batons';
import { claimSet, claimWhere, LIVE } from '../src/where/claims';
import { scopeAttentionOf } from '../src/where/lanes';
import { linkWhere } from '../src/where/links';
import { refColumnsOf } from '../src/where/observations';
import { plansMatching, subtaskWhere } from '../src/where/plans';
import { proposalsMatching } from '../src/where/proposals';
import { mergedSession, newSessionRow } from '../src/where/sessions';
import { failureCounted } from '../src/where/spec-failures';
import { taskWhere } from '../src/where/tasks';

type Tables = typeof schema | typeof pgTables;
const sqlite = new SQLiteSyncDialect();
const pg = new PgDialect();

/** The builder's condition on SQLite, after checking PostgreSQL renders the same (markers aside). */
function rendered(build: (t: Tables) => SQL | undefined): { sql: string; params: unknown[] } | undefined {
  const [onSqlite, onPg] = [build(schema), build(pgTables)];
  if (onSqlite === undefined || onPg === undefined) {
    expect(onPg).toBe(onSqlite);
    return undefined;
  }
  const a = sqlite.sqlToQuery(onSqlite);
  const b = pg.sqlToQuery(onPg);
  expect({ sql: b.sql.replace(/\$\d+/g, '?'), params: b.params }).toEqual({ sql: a.sql, params: a.params });
  return { sql: a.sql, params: a.params };
}

describe('where builders', () => {
  it('render the guarded one-winner conditions alike on both dialects', () => {
    expect(rendered((t) => pendingOne(t.batons, 7))).toEqual({
      sql: '("batons"."id" = ? and "batons"."status" = ?)',
      params: [7, 'pending'],
    });
    expect(rendered((t) => oneIn(t.plans, 3, 'active'))?.params).toEqual([3, 'active']);
    expect(rendered((t) => subtaskWhere.heldBy(t.planSubtasks, 4, 's'))?.sql).toBe(
      '("plan_subtasks"."id" = ? and "plan_subtasks"."status" = ? and "plan_subtasks"."claimed_by_session_id" = ?)',
    );
  });

  it('render claim lists and state changes alike, live states included', () => {
    expect(rendered((t) => claimWhere.liveOnFiles(t.fileClaims, 1, 's', ['a.ts', 'b.ts']))).toEqual({
      sql: '("file_claims"."task_id" = ? and "file_claims"."session_id" = ? and "file_claims"."file_path" in (?, ?) and "file_claims"."state" in (?, ?))',
      params: [1, 's', 'a.ts', 'b.ts', 'active', 'handoff_pending'],
    });
    expect(rendered((t) => claimWhere.expiredPending(t.fileClaims, 1, 50))?.params).toEqual([1, 'handoff_pending', 50]);
    expect(rendered((t) => claimWhere.expiredPending(t.fileClaims, 1, 50, 'a.ts'))?.params).toHaveLength(4);
    expect(rendered((t) => claimWhere.onRepoFile(t.fileClaims, t.tasks, '/r', 'a.ts'))?.sql).toContain(
      '"tasks"."repo_root" = ?',
    );
    expect(claimSet.settle(9, 'active')).toEqual({ state: 'active', batonId: null, expiresAt: null });
    expect(claimSet.settle(9, 'weak_expired')).toEqual({ state: 'weak_expired', batonId: 9, expiresAt: undefined });
  });

  it('build with placeholders the condition a prepared SQLite statement shares with its twin', () => {
    const place = { taskId: 1, filePath: 'a.ts', sessionId: 's' };
    const withValues = rendered((t) => claimWhere.onFile(t.fileClaims, place, LIVE));
    const prepared = placeholders('taskId', 'filePath', 'sessionId');
    expect(rendered((t) => claimWhere.onFile(t.fileClaims, prepared, LIVE))?.sql).toBe(withValues?.sql);
    expect(withValues?.params).toEqual([1, 'a.ts', 's', 'active', 'handoff_pending']);
    expect(rendered((t) => claimWhere.onFile(t.fileClaims, place, 'active'))?.sql).toContain(
      '"file_claims"."state" = ?',
    );
  });

  it('render the open batons of a session alike, its raw addressing fragment included', () => {
    const open = rendered((t) => batonWhere.openFor(t.taskParticipants, t.batons, 's', 100));
    expect(open?.sql).toContain('("batons"."to_session_id" IS NULL OR "batons"."to_session_id" = ?)');
    expect(open?.params).toEqual(['pending', 100, 's', 's']);
  });

  it('drop the filters not given, as the queries did before', () => {
    expect(rendered((t) => taskWhere.matching(t.tasks, {}))).toBeUndefined();
    expect(rendered((t) => taskWhere.matching(t.tasks, { branch: 'b' }))?.sql).toBe('"tasks"."branch" = ?');
    expect(rendered((t) => plansMatching(t.plans, { repoRoot: '/r', status: 'active' }))?.params).toEqual([
      '/r',
      'active',
    ]);
    expect(rendered((t) => eqIf(t.batons.status, undefined))).toBeUndefined();
    const since = { repoRoot: '/r', branch: 'main', status: 'promoted', promotedSince: 5 };
    expect(rendered((t) => proposalsMatching(t.proposals, since))?.sql).toContain('"proposals"."promoted_at" >= ?');
  });

  it('find a link in either order, and its other side', () => {
    expect(rendered((t) => linkWhere.pair(t.taskLinks, 9, 3))?.params).toEqual([3, 9]);
    expect(rendered((t) => linkWhere.otherSide(t.taskLinks, 3))?.sql).toBe(
      'CASE WHEN "task_links"."low_id" = ? THEN "task_links"."high_id" ELSE "task_links"."low_id" END',
    );
  });

  it("count a failure up in the table's own column, and select each dialect's own columns", () => {
    const report = { repoRoot: '/r', signatureHash: 'h', testId: 't', summary: 's' };
    expect(rendered((t) => sql`${failureCounted(t.specFailures, report, 1).set.count}`)?.sql).toBe(
      '"spec_failures"."count" + 1',
    );
    expect(failureCounted(pgTables.specFailures, report, 1).target).toEqual([
      pgTables.specFailures.repoRoot,
      pgTables.specFailures.signatureHash,
    ]);
    const refs = refColumnsOf(pgTables.observations);
    expect(Object.keys(refs)).toEqual(['id', 'sessionId', 'taskId', 'kind', 'ts', 'replyTo']);
    expect(refs.sessionId).toBe(pgTables.observations.sessionId);
    expect(refColumnsOf(schema.observations).ts).toBe(schema.observations.ts);
  });
});

describe('row values', () => {
  it('merge a known session: fields filled when first known, never blanked, heartbeat never back', () => {
    const first = newSessionRow({ id: 's', agent: 'claude', metadata: { a: 1 } }, 10);
    expect(first).toMatchObject({ ide: 'unknown', agent: 'claude', cwd: null, startedAt: 10, lastHeartbeatAt: 10 });
    const merged = mergedSession(first, { id: 's', ide: 'unknown', cwd: '/w', metadata: { b: 2 } }, 5);
    expect(merged).toEqual({
      ide: 'unknown',
      agent: 'claude',
      cwd: '/w',
      lastHeartbeatAt: 10,
      endedAt: null,
      metadata: { a: 1, b: 2 },
    });
  });

  it("sum a scope's attention: blocking messages, handoffs and relays, newest ids first", () => {
    const messages = [
      { id: 4, urgency: 'blocking' },
      { id: 1, urgency: 'fyi' },
    ];
    const batons = [
      { id: 3, kind: 'handoff' },
      { id: 5, kind: 'relay' },
    ];
    expect(scopeAttentionOf(messages, batons, 3)).toEqual({
      unreadMessages: 2,
      blockingMessages: 1,
      pendingHandoffs: 1,
      pendingRelays: 1,
      observationIds: [5, 4, 3],
    });
    expect(definedOnly({ a: 1, b: undefined, c: null })).toEqual({ a: 1, c: null });
  });
});

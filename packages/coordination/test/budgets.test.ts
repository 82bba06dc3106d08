/**
 * The `budget` object (ARCHITECTURE principle 5) on the compact object-shaped reads:
 * what matched, what came back, what was left out and why, and the answer's real size
 * in tokens.
 */
import { countTokens } from 'gpt-tokenizer/encoding/cl100k_base';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFixture, type Fixture } from './_fixture';

// biome-ignore lint/suspicious/noExplicitAny: answers are asserted field by field
type Answer = any;

let fx: Fixture;
let repo: string;
beforeEach(() => {
  fx = createFixture();
  repo = fx.repo('repo');
});
afterEach(() => fx.close());

/** The budget's token figure is the answer's own size (its own digits and piecewise counting aside). */
function expectSized(answer: Answer) {
  const real = countTokens(JSON.stringify(answer));
  expect(Math.abs(answer.budget.estimated_tokens_returned - real)).toBeLessThanOrEqual(Math.max(5, real * 0.02));
}

const threads = async (branches: string[]) => {
  for (const branch of branches) {
    await fx.ok('task_thread', { repo_root: repo, branch, session_id: 'codex-1', agent: 'codex' });
    fx.clock.advance(1000);
  }
};

describe('budget on compact reads', () => {
  it('task_list: counts every matching thread when the page is full, says why it collapsed', async () => {
    await threads(['a', 'b', 'c']);
    const page = await fx.ok<Answer>('task_list', { repo_root: repo, limit: 2, session_id: 'codex-1' });
    expect(page.tasks).toHaveLength(2);
    expect(page.budget).toMatchObject({
      items_available: 3,
      items_returned: 2,
      collapsed_count: 1,
      hydrate_with: 'task_timeline',
    });
    expect(page.budget.why_collapsed).toMatch(/raise limit/);
    expectSized(page);
    const all = await fx.ok<Answer>('task_list', { repo_root: repo, limit: 5 });
    expect(all.budget).toMatchObject({
      items_available: 3,
      items_returned: 3,
      collapsed_count: 0,
      why_collapsed: null,
    });
    expect((await fx.ok<Answer>('task_list', { branch: 'b' })).budget.items_available).toBe(1);
  });

  it('task_foraging_report: pending and promoted against the limit', async () => {
    await threads(['main']);
    for (const summary of ['Cache the token counter', 'Batch the receipts', 'Index claims by path']) {
      await fx.ok('task_propose', {
        repo_root: repo,
        branch: 'main',
        summary,
        rationale: 'faster',
        session_id: 'codex-1',
      });
    }
    const report = await fx.ok<Answer>('task_foraging_report', { repo_root: repo, branch: 'main', limit: 2 });
    expect(report.pending).toHaveLength(2);
    expect(report.budget).toMatchObject({ items_available: 3, items_returned: 2, collapsed_count: 1 });
    expectSized(report);
  });

  it('openspec_sync_status: every drift row against those listed', async () => {
    await threads(['spec/alpha', 'spec/beta', 'spec/gamma']);
    const status = await fx.ok<Answer>('openspec_sync_status', { repo_root: repo, limit: 2 });
    expect(status).toMatchObject({ total: 3, truncated: true });
    expect(status.budget).toMatchObject({
      items_available: 3,
      items_returned: 2,
      collapsed_count: 1,
      hydrate_with: 'openspec_sync_status',
    });
    expectSized(status);
  });

  it('savings_report and task_autopilot_tick: nothing left out, or one decision out of many signals', async () => {
    const report = await fx.ok<Answer>('savings_report', { hours: 1 });
    expect(report.budget.collapsed_count).toBe(0);
    expect(report.budget.items_available).toBe(report.live.operations.length + report.reference.rows.length);
    expectSized(report);

    await threads(['main']);
    const tick = await fx.ok<Answer>('task_autopilot_tick', { session_id: 'codex-1', agent: 'codex' });
    expect(tick.decision).toBe('no_op');
    expect(tick.budget).toMatchObject({ items_available: 0, items_returned: 0, hydrate_with: 'attention_inbox' });
    expectSized(tick);
  });

  it('task_ready_for_agent: the ranked sub-tasks against the entries shown', async () => {
    await fx.ok('task_plan_publish', {
      repo_root: repo,
      slug: 'lanes',
      session_id: 'queen-1',
      agent: 'claude',
      title: 'Lanes',
      problem: 'Three lanes.',
      acceptance_criteria: ['done'],
      subtasks: ['a', 'b', 'c'].map((x) => ({ title: `Lane ${x}`, description: x, file_scope: [`src/${x}.ts`] })),
    });
    const answer = await fx.ok<Answer>('task_ready_for_agent', {
      session_id: 'codex-1',
      agent: 'codex',
      repo_root: repo,
      limit: 2,
      auto_claim: false,
    });
    expect(answer.budget).toMatchObject({
      items_available: 3,
      items_returned: 2,
      collapsed_count: 1,
      hydrate_with: 'task_plan_list',
    });
    expectSized(answer);
  });
});

import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { CONFIG, connectServer, core, countTokens, details, HOME, log, row, TMP } from '../lib/setup.mjs';
import { fmtMs, summarize } from '../lib/util.mjs';

// ---------------------------------------------------------------- 9. ready work

export const READY_PLANS = 50;
export const READY_SUBTASKS = 10;

/**
 * A plan of ten sub-tasks in three waves: six independent lanes, three that each wait
 * on two of them, and a finalizer on everything. Files are the plan's own.
 */
export function readyPlan(repoRoot, p) {
  const hints = ['api_work', 'ui_work', 'infra_work', 'doc_work', 'api_work', 'ui_work'];
  const subtasks = hints.map((capability_hint, i) => ({
    title: `Lane ${i} of plan ${p}`,
    description: 'bench lane',
    file_scope: [`plans/p${p}/lane${i}.ts`],
    capability_hint,
  }));
  for (let i = 0; i < 3; i++) {
    subtasks.push({
      title: `Join ${i} of plan ${p}`,
      description: 'bench join',
      file_scope: [`plans/p${p}/join${i}.ts`],
      depends_on: [2 * i, 2 * i + 1],
      capability_hint: 'api_work',
    });
  }
  subtasks.push({
    title: `Verify plan ${p}`,
    description: 'bench finalizer',
    file_scope: [`plans/p${p}/verify.test.ts`],
    depends_on: [6, 7, 8],
    capability_hint: 'test_work',
  });
  return {
    repo_root: repoRoot,
    slug: `bench-plan-${p}`,
    session_id: 'queen-bench',
    agent: 'claude',
    title: `Bench plan ${p}`,
    problem: 'bench',
    acceptance_criteria: ['done'],
    subtasks,
  };
}

export async function benchReadyForAgent() {
  log(
    `[ready] task_ready_for_agent over MCP stdio: ${READY_PLANS} published plans x ${READY_SUBTASKS} sub-tasks, ${CONFIG.readyCalls} browse calls, ${CONFIG.readyClaims} auto-claims`,
  );
  const db = join(TMP, 'ready.db');
  const repoRoot = join(TMP, 'ready-repo');
  mkdirSync(repoRoot);
  const colony = core.openColony({ home: HOME, dbPath: db, receipts: false, roots: [repoRoot] });
  try {
    const call = async (tool, args) => {
      const out = await colony.handleToolCall(tool, args);
      if (!out.ok) throw new Error(`${tool} failed: ${out.text}`);
      return out.value;
    };
    for (let p = 0; p < READY_PLANS; p++) await call('task_plan_publish', readyPlan(repoRoot, p));
    await call('agent_upsert_profile', { agent: 'codex', capabilities: { api_work: 0.9, ui_work: 0.3 } });
    // Someone else holds a lane of every fifth plan: its claim lowers that lane's score.
    const { task_id } = await call('task_thread', {
      repo_root: repoRoot,
      branch: 'hotfix',
      session_id: 'claude-bench',
      agent: 'claude',
    });
    for (let p = 0; p < READY_PLANS; p += 5) {
      await call('task_claim_file', { task_id, session_id: 'claude-bench', file_path: `plans/p${p}/lane0.ts` });
    }
  } finally {
    colony.close();
  }

  const server = await connectServer(db);
  const browse = [];
  const claims = [];
  let sample;
  try {
    const ask = (session_id, auto_claim) =>
      server.call('task_ready_for_agent', { session_id, agent: 'codex', repo_root: repoRoot, limit: 5, auto_claim });
    for (let i = 0; i < CONFIG.warmup; i++) await ask('codex-bench', false);
    for (let i = 0; i < CONFIG.readyCalls; i++) {
      const t0 = performance.now();
      const out = await ask('codex-bench', false);
      browse.push(performance.now() - t0);
      if (out.isError) throw new Error(`task_ready_for_agent failed: ${JSON.stringify(out.content)}`);
      sample ??= JSON.parse(out.content[0].text);
    }
    // Each call from a new session claims the top sub-task in the same call.
    for (let i = 0; i < CONFIG.readyClaims; i++) {
      const t0 = performance.now();
      const out = await ask(`codex-claimer-${i}`, true);
      claims.push(performance.now() - t0);
      const payload = JSON.parse(out.content[0].text);
      if (out.isError || payload.auto_claimed?.ok !== true)
        throw new Error(`auto-claim failed: ${out.content[0].text}`);
    }
  } finally {
    await server.close();
  }
  const b = summarize(browse);
  const c = summarize(claims);
  details.ready_for_agent = {
    plans: READY_PLANS,
    subtasks_per_plan: READY_SUBTASKS,
    claimable_at_start: sample.total_available,
    browse_calls: browse.length,
    browse_ms: b,
    auto_claim_calls: claims.length,
    auto_claim_ms: c,
    response_tokens: countTokens(JSON.stringify(sample)),
  };
  row(
    `task_ready_for_agent over MCP stdio, ${READY_PLANS} plans x ${READY_SUBTASKS} sub-tasks (browse)`,
    `p50 ${fmtMs(b.p50)} / p95 ${fmtMs(b.p95)} ms`,
    null,
    null,
  );
  row(
    'task_ready_for_agent with auto_claim (ranks and claims in one call)',
    `p50 ${fmtMs(c.p50)} / p95 ${fmtMs(c.p95)} ms`,
    null,
    null,
  );
}

import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { raceRoundPlan } from '../lib/race.mjs';
import { BUSY, CONFIG, connectServer, core, details, HOME, log, row, TMP } from '../lib/setup.mjs';
import { fmtMs, summarize } from '../lib/util.mjs';

// ---------------------------------------------------------------- 10. plan sub-task claim race

/**
 * Sixteen server processes claim one plan sub-task at once, each for its own session;
 * one fresh plan per round. Settle time: from firing the sixteen calls until the last
 * answer is back (one winner, fifteen PLAN_SUBTASK_NOT_AVAILABLE).
 */
export async function benchPlanRace() {
  const racers = 16;
  log(`[plans] task_plan_claim_subtask: ${racers} server processes racing one sub-task, ${CONFIG.raceRounds} rounds`);
  const db = join(TMP, 'plans.db');
  const repo = join(TMP, 'plans-repo');
  mkdirSync(repo);
  const colony = core.openColony({ home: HOME, dbPath: db, receipts: false });
  try {
    for (let round = 0; round < CONFIG.raceRounds; round++) {
      const files = [`src/r${round}/a.ts`, `src/r${round}/b.ts`];
      await colony.plans.publish(raceRoundPlan(repo, round, 'queen-bench', files));
    }
  } finally {
    await colony.close();
  }

  const fleet = await Promise.all(Array.from({ length: racers }, () => connectServer(db)));
  const settle = [];
  let wrongRounds = 0;
  const unexpected = [];
  try {
    for (let round = 0; round < CONFIG.raceRounds; round++) {
      const t0 = performance.now();
      const answers = await Promise.all(
        fleet.map((server, i) =>
          server.call('task_plan_claim_subtask', {
            plan_slug: `race-${round}`,
            subtask_index: 0,
            session_id: `racer-${i}`,
            agent: i % 2 ? 'claude' : 'codex',
          }),
        ),
      );
      settle.push(performance.now() - t0);
      const codes = answers.filter((a) => a.isError).map((a) => JSON.parse(a.content?.[0]?.text ?? '{}').code);
      if (codes.length !== racers - 1) wrongRounds++;
      unexpected.push(...codes.filter((c) => c !== 'PLAN_SUBTASK_NOT_AVAILABLE'));
    }
  } finally {
    await Promise.all(fleet.map((s) => s.close()));
  }
  const busy =
    fleet.filter((s) => BUSY.test(s.stderr())).length + unexpected.filter((c) => c === 'INTERNAL_ERROR').length;
  const warm = summarize(settle.slice(1));
  details.plan_claim_race = {
    racers,
    rounds: CONFIG.raceRounds,
    first_round_ms: settle[0],
    warm_settle_ms: warm,
    rounds_without_exactly_one_winner: wrongRounds,
    unexpected_codes: unexpected.slice(0, 5),
    busy_errors_surfaced: busy,
  };
  row(
    `task_plan_claim_subtask, ${racers} processes racing one sub-task: settle time`,
    `p50 ${fmtMs(warm.p50)} / p95 ${fmtMs(warm.p95)} ms (first round ${fmtMs(settle[0])} ms)`,
    null,
    null,
  );
  row(
    `plan claim race: rounds without exactly one winner, other codes, busy errors (${CONFIG.raceRounds} rounds)`,
    `${wrongRounds} / ${unexpected.length} / ${busy}`,
    '0 / 0 / 0',
    wrongRounds === 0 && unexpected.length === 0 && busy === 0,
  );
}

/**
 * The plan sub-task claim race shared by bench/store-writepath.mjs (8 servers on one
 * SQLite file) and bench/postgres.mjs (S servers on SQLite and on PostgreSQL): a
 * `tools/call` over a RawRpc, the plans published one per round (sub-0 contended, sub-1
 * free), and one round fired at every server at once.
 */

/** A tools/call answer: error flag, the JSON payload (or the text), and the text. */
export async function callTool(rpc, name, args, timeoutMs = 60_000) {
  const result = await rpc.request('tools/call', { name, arguments: args }, timeoutMs);
  const text = result.content?.[0]?.text ?? '';
  let payload;
  try {
    payload = JSON.parse(text);
  } catch {
    payload = text;
  }
  return { isError: result.isError === true, payload, text };
}

/** Publishes `rounds` plans `race-<n>` in `repo` through `rpc`: sub-0 is raced for, sub-1 stays free. */
/**
 * The plan of race round `round`: sub-0 (the contended one, over `files`) and sub-1 on
 * other files, which the losers are pointed to.
 */
export function raceRoundPlan(repo, round, sessionId = 'queen', files = [`src/r${round}/a.ts`]) {
  return {
    repo_root: repo,
    slug: `race-${round}`,
    session_id: sessionId,
    agent: 'claude',
    title: `race ${round}`,
    problem: 'everyone wants sub-0',
    acceptance_criteria: ['one winner'],
    subtasks: [
      { title: 'contended', description: 'x', file_scope: files },
      { title: 'free', description: 'y', file_scope: [`docs/r${round}.md`] },
    ],
  };
}

export async function publishRaceRounds(rpc, repo, rounds) {
  for (let round = 0; round < rounds; round++) {
    const r = await callTool(rpc, 'task_plan_publish', raceRoundPlan(repo, round));
    if (r.isError) throw new Error(`publish: ${r.text}`);
  }
}

/**
 * Every server claims sub-0 of round `round` at once, each for its own session: the
 * settle time (first call fired -> last answer), whether exactly one won, and the codes
 * of the losers other than PLAN_SUBTASK_NOT_AVAILABLE.
 */
export async function raceRound(rpcs, round) {
  const t0 = performance.now();
  const answers = await Promise.all(
    rpcs.map((rpc, i) =>
      callTool(rpc, 'task_plan_claim_subtask', {
        plan_slug: `race-${round}`,
        subtask_index: 0,
        session_id: `racer-${i}`,
        agent: i % 2 ? 'claude' : 'codex',
      }),
    ),
  );
  const ms = performance.now() - t0;
  const errors = answers.filter((a) => a.isError);
  return {
    ms,
    oneWinner: errors.length === rpcs.length - 1,
    unexpected: errors.map((a) => a.payload.code).filter((c) => c !== 'PLAN_SUBTASK_NOT_AVAILABLE'),
  };
}

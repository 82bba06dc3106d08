/**
 * The startup store: what an agent's first three calls (hivemind_context ->
 * attention_inbox -> task_ready_for_agent) meet in a realistic colony, built through
 * real tool calls (`openColony` + `handleToolCall`) under a manual clock, so the
 * token-discipline test and `pnpm bench` measure the same thing.
 *
 * Live state (the last two days before NOW): 50 sessions on 25 task threads, 5,000
 * observations (posts, a few negative warnings among them), 20 published plans in every
 * state (untouched, wave 0 claimed by live and by dead sessions, wave 0 done, done),
 * six live sessions holding fresh claims, stale claims of dead ones, and for the startup
 * agent: unread blocking / needs_reply / fyi messages, a broadcast and a pending handoff.
 *
 * With `history: true` the store first accumulates what weeks of work leave behind
 * (before the live part, ending three days before NOW): 500 completed plans of 10
 * sub-tasks (5,000 finished tasks, each claimed, posted on and completed), messages
 * read and replied to, handoffs accepted, by 200 sessions long gone. The live part is
 * then identical to the fresh store's, so any difference in cost is history's.
 *
 * The caller passes `openColony` (bench: the built @swarm/core; tests: the source), so
 * this module imports no colony package. Receipts are off while seeding (they would
 * only add mcp_metrics rows); the store is closed when this returns.
 */
import { mkdirSync } from 'node:fs';
import { buildVocabulary, noteStream, prng } from './corpus.mjs';

export const NOW = Date.UTC(2026, 3, 1, 12, 0, 0);
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

export const STARTUP_SIZES = { sessions: 50, observations: 5_000, plans: 20 };
export const HISTORY_SIZES = { plans: 500, subtasksPerPlan: 10, sessions: 200 };

/** The agent whose startup is measured. */
export const STARTUP_AGENT = { session_id: 'codex-startup-00', agent: 'codex' };
export const STARTUP_QUERY = 'stale claim relay timeout';

const AGENTS = ['claude', 'codex', 'cursor', 'claude', 'codex'];
const APPS = ['api', 'web', 'cli', 'worker', 'gateway'];
const HINTS = ['api_work', 'ui_work', 'infra_work', 'doc_work', 'test_work'];
const TOPICS = [
  'quota relay cleanup',
  'stale claim sweep',
  'search ranking',
  'session heartbeat',
  'plan wave validation',
  'message expiry',
  'worktree merge',
  'token receipts',
  'dark mode',
  'settings loader',
  'hook preface',
  'spec archive',
  'proposal decay',
  'rescue scan',
  'vector backfill',
  'cli json output',
  'http bearer auth',
  'handoff targeting',
  'drift check',
  'inbox buckets',
  'lane activity',
  'profile weights',
  'queue leases',
  'context mesh',
  'savings report',
];
const NEGATIVE = ['failed_approach', 'blocked_path', 'conflict_warning', 'reverted_solution'];
const WARNINGS = [
  'Do not raise the relay timeout: stale claims then linger for hours.',
  'Polling the claim table every second locks out writers (SQLITE_BUSY).',
  'Reverted the stale claim sweep on startup: it released live claims of idle lanes.',
  'Blocked: the relay timeout test needs the manual clock, Date.now() makes it flaky.',
];

/** The 50 live sessions: index 0 is the startup agent; 1-6 are live now, the rest quiet or gone. */
export const liveSessionId = (i) => (i === 0 ? STARTUP_AGENT.session_id : `${AGENTS[i % 5]}-live-${pad(i)}`);
const agentOf = (sessionId) => sessionId.split('-')[0];
const pad = (n, w = 2) => String(n).padStart(w, '0');

/**
 * Builds the store at `dbPath` (a new file), with plan spec files under `repoRoot` (an
 * existing or creatable directory). Answers what the startup calls need.
 */
export async function seedStartupStore({ openColony, dbPath, home, repoRoot, history = false }) {
  mkdirSync(repoRoot, { recursive: true });
  let now = history ? NOW - 40 * DAY : NOW - 2 * DAY;
  const clock = { now: () => now };
  const colony = openColony({ home, dbPath, clock, receipts: false, embedder: null, roots: [repoRoot] });
  const call = async (tool, args) => {
    const out = await colony.handleToolCall(tool, args);
    if (!out.ok) throw new Error(`seed: ${tool} failed: ${out.text}`);
    return out.value;
  };
  const at = (ms) => {
    now = Math.max(now, ms);
  };
  const vocabulary = buildVocabulary();
  try {
    if (history) await seedHistory({ call, at, repoRoot, vocabulary });
    at(NOW - 2 * DAY);
    const live = await seedLive({ call, at, repoRoot, vocabulary, status: () => colony.status() });
    return {
      now: NOW,
      repoRoot,
      ...STARTUP_AGENT,
      query: STARTUP_QUERY,
      ...live,
      observations: (await colony.status()).observations,
      sessions: (await colony.status()).sessions,
      tasks: (await colony.status()).tasks,
    };
  } finally {
    colony.close();
  }
}

/** The seed contract's copy-paste startup calls, browse-only (auto_claim false: measuring changes nothing). */
export function startupCalls(seed) {
  return [
    ['hivemind_context', { repo_root: seed.repoRoot, query: seed.query, memory_limit: 3, limit: 20 }],
    ['attention_inbox', { session_id: seed.session_id, agent: seed.agent, repo_root: seed.repoRoot }],
    [
      'task_ready_for_agent',
      { session_id: seed.session_id, agent: seed.agent, repo_root: seed.repoRoot, limit: 5, auto_claim: false },
    ],
  ];
}

// ---------------------------------------------------------------- the live part

/** When a live-part session last showed a sign of life: 1-6 are live, 7-14 idle or stalled, the rest gone. */
export function lastSeen(i) {
  if (i === 0) return NOW - 12 * HOUR;
  if (i <= 6) return NOW - (1 + i) * MINUTE;
  if (i <= 14) return NOW - (15 + (i - 7) * 10) * MINUTE;
  return NOW - (3 + (i - 15)) * HOUR;
}

const slugOf = (topic) => topic.replaceAll(' ', '-');

async function seedLive({ call, at, repoRoot, vocabulary, status }) {
  const start = NOW - 2 * DAY;
  // The live part adds exactly 5,000 observations, whatever history lies below it.
  const target = (await status()).observations + STARTUP_SIZES.observations;
  const rand = prng(2026);
  const notes = noteStream(vocabulary, 5);
  // 25 threads, two sessions each; the startup agent shares thread 0 with codex-live-01.
  const threads = [];
  for (let t = 0; t < TOPICS.length; t++) {
    const pair = [2 * t, 2 * t + 1];
    const branch = `agent/${agentOf(liveSessionId(pair[0]))}/${slugOf(TOPICS[t])}`;
    let taskId;
    for (const s of pair) {
      const session_id = liveSessionId(s);
      const title = `${TOPICS[t][0].toUpperCase()}${TOPICS[t].slice(1)}`;
      const out = await call('task_thread', {
        repo_root: repoRoot,
        branch,
        session_id,
        agent: agentOf(session_id),
        title,
      });
      taskId = out.task_id;
    }
    threads.push({ taskId, sessions: pair, topic: TOPICS[t] });
  }
  await call('agent_upsert_profile', {
    agent: 'codex',
    capabilities: { api_work: 0.9, infra_work: 0.7, ui_work: 0.3, test_work: 0.6 },
  });
  await call('agent_upsert_profile', { agent: 'claude', capabilities: { ui_work: 0.9, doc_work: 0.8 } });

  // Everything after the set-up is an event at a time; they run in time order.
  const events = [];
  const on = (t, run) => events.push({ t, run });
  planEvents(on, call, repoRoot, start);
  // Every session but the startup agent claims a file of its thread shortly before it
  // went quiet; the live ones claim two (fresh now, stale or weak for the others).
  for (const { taskId, sessions, topic } of threads) {
    for (const s of sessions) {
      if (s === 0) continue;
      for (let f = 0; f < (s <= 6 ? 2 : 1); f++) {
        const file_path = `apps/${APPS[s % 5]}/src/${slugOf(topic)}-${s}-${f}.ts`;
        on(lastSeen(s) - 5 * MINUTE, () =>
          call('task_claim_file', { task_id: taskId, session_id: liveSessionId(s), file_path }),
        );
      }
    }
  }
  const mine = threads[0];
  const peer = liveSessionId(1);
  const mail = [
    ['blocking', 'Hold the relay timeout change: my stale claim sweep rewrites the same query.'],
    ['needs_reply', 'Which branch carries the heartbeat fix? I need it before merging the sweep.'],
    ['fyi', 'Pushed the relay cleanup tests; they pass under the manual clock.'],
  ];
  for (const [k, [urgency, content]] of mail.entries()) {
    on(NOW - (6 - k) * MINUTE, () =>
      call('task_message', {
        task_id: mine.taskId,
        session_id: peer,
        agent: agentOf(peer),
        to_agent: 'codex',
        to_session_id: STARTUP_AGENT.session_id,
        urgency,
        content,
      }),
    );
  }
  const other = threads[1];
  on(NOW - 5 * MINUTE, () =>
    call('task_message', {
      task_id: other.taskId,
      session_id: liveSessionId(2),
      agent: agentOf(liveSessionId(2)),
      to_agent: 'any',
      urgency: 'fyi',
      content: 'Anyone free: the search ranking thread needs a reviewer for the bm25 weights.',
    }),
  );
  let handoff = null;
  on(NOW - 4 * MINUTE, async () => {
    handoff = await call('task_hand_off', {
      task_id: mine.taskId,
      session_id: peer,
      agent: agentOf(peer),
      to_agent: 'codex',
      to_session_id: STARTUP_AGENT.session_id,
      summary: 'Take over the quota relay cleanup: tests green, docs left.',
      next_steps: ['Update docs/cli.md for the new flag', 'Run the relay suite once more'],
      transferred_files: [`apps/${APPS[1]}/src/${slugOf(mine.topic)}-1-0.ts`],
    });
  });

  // Posts fill the store up to 5,000 observations: each session posts on its thread
  // between the start and when it went quiet, busy threads more often.
  // What the other events write (a claim or message one or two observations, a
  // publish about eight), over-estimated a little: the top-up below closes the gap.
  const fixed = 2 * events.length + 8 * STARTUP_SIZES.plans;
  const posts = target - (await status()).observations - fixed;
  let warning = 0;
  for (let i = 0; i < posts; i++) {
    const thread = threads[Math.floor(rand() ** 1.6 * threads.length)];
    const s = thread.sessions[Math.floor(rand() * 2)];
    const t = start + Math.floor(rand() * (lastSeen(s) - start));
    const note = notes.next();
    const negative = i % 97 === 13;
    const kind = negative ? NEGATIVE[warning % NEGATIVE.length] : note.kind;
    const content = negative ? `${WARNINGS[warning++ % WARNINGS.length]} ${note.content.slice(0, 120)}` : note.content;
    on(t, () => call('task_post', { task_id: thread.taskId, session_id: liveSessionId(s), kind, content }));
  }
  events.sort((a, b) => a.t - b.t);
  for (const e of events) {
    at(e.t);
    await e.run();
  }
  // Top up to exactly 5,000 with the live sessions' latest notes.
  const missing = target - (await status()).observations;
  if (missing < 0) throw new Error(`seed: ${-missing} observations too many`);
  for (let i = 0; i < missing; i++) {
    const s = 1 + (i % 6);
    at(lastSeen(s));
    const task_id = threads[Math.floor(s / 2)].taskId;
    await call('task_post', { task_id, session_id: liveSessionId(s), kind: 'note', content: notes.next().content });
  }
  at(NOW);
  return {
    plans: STARTUP_SIZES.plans,
    threads: threads.length,
    handoff_observation_id: handoff?.handoff_observation_id,
  };
}

/**
 * Twenty plans of five sub-tasks (lanes, joins, a verification), in every state: 0-7
 * untouched, 8-11 wave 0 claimed by a live session, 12-13 by a gone one, 14-17 wave 0
 * done, 18-19 done.
 */
function planEvents(on, call, repoRoot, start) {
  const slug = (p) => `live-plan-${pad(p)}`;
  const step = (tool, p, subtask_index, s, extra) =>
    call(tool, { repo_root: repoRoot, plan_slug: slug(p), subtask_index, session_id: liveSessionId(s), ...extra });
  const claim = (p, i, s) => step('task_plan_claim_subtask', p, i, s, { agent: agentOf(liveSessionId(s)) });
  const complete = (p, i, s) => step('task_plan_complete_subtask', p, i, s, { summary: `Finished sub-${i}.` });
  for (let p = 0; p < STARTUP_SIZES.plans; p++) {
    on(start + p * 20 * MINUTE, () => call('task_plan_publish', planArgs(repoRoot, slug(p), p, liveSessionId(49), 5)));
  }
  for (let p = 8; p < 12; p++) on(lastSeen(p - 7) - 20 * MINUTE, () => claim(p, 0, p - 7));
  for (let p = 12; p < 20; p++) {
    const s = 20 + p;
    const work = [[0, p >= 14]];
    if (p >= 14) work.push([1, true]);
    if (p >= 18) work.push([2, true], [3, true], [4, true]);
    on(lastSeen(s) - 30 * MINUTE, async () => {
      for (const [i, finish] of work) {
        await claim(p, i, s);
        if (finish) await complete(p, i, s);
      }
    });
  }
}

/** Publish arguments of a plan of `size` sub-tasks: lanes, joins on pairs of lanes, a verification last. */
function planArgs(repoRoot, slug, p, queen, size) {
  const app = APPS[p % APPS.length];
  const lanes = size - 1 - Math.floor((size - 1) / 2);
  const subtasks = [];
  for (let i = 0; i < lanes; i++) {
    const files = Array.from({ length: 1 + ((p + i) % 4) }, (_, f) => `apps/${app}/src/${slug}/lane${i}-${f}.ts`);
    subtasks.push({
      title: `${TOPICS[(p + i) % TOPICS.length]}: lane ${i}`,
      description: `Implement lane ${i} of ${slug}.`,
      file_scope: files,
      capability_hint: HINTS[(p + i) % 4],
    });
  }
  for (let j = 0; lanes + j < size - 1; j++) {
    subtasks.push({
      title: `Join lanes of ${TOPICS[(p + j) % TOPICS.length]} (${j})`,
      description: `Wire lanes together for ${slug}.`,
      file_scope: [`apps/${app}/src/${slug}/join${j}.ts`, `packages/core/src/${slug}-${j}.ts`],
      depends_on: [j % lanes, (j + 1) % lanes].filter((v, k, a) => a.indexOf(v) === k),
      capability_hint: HINTS[(p + j + 1) % 4],
    });
  }
  subtasks.push({
    title: `Verify ${slug}`,
    description: 'Run the suite and check the acceptance criteria.',
    file_scope: [`apps/${app}/test/${slug}.test.ts`],
    depends_on: subtasks.map((_, i) => i),
    capability_hint: 'test_work',
  });
  return {
    repo_root: repoRoot,
    slug,
    session_id: queen,
    agent: 'claude',
    title: `${TOPICS[p % TOPICS.length]} (${slug})`,
    problem: `Plan ${slug}.`,
    acceptance_criteria: ['Suite green', 'Docs updated'],
    subtasks,
  };
}

// ---------------------------------------------------------------- history

async function seedHistory({ call, at, repoRoot, vocabulary }) {
  const { plans, subtasksPerPlan, sessions } = HISTORY_SIZES;
  const notes = noteStream(vocabulary, 9);
  const start = NOW - 40 * DAY;
  const span = 37 * DAY;
  const worker = (n) => `${AGENTS[n % 5]}-past-${pad(n % sessions, 3)}`;
  let done = 0;
  for (let p = 0; p < plans; p++) {
    at(start + Math.floor((span * p) / plans));
    const slug = `past-plan-${pad(p, 3)}`;
    await call('task_plan_publish', planArgs(repoRoot, slug, p, `queen-past-${pad(p % 7)}`, subtasksPerPlan));
    for (let i = 0; i < subtasksPerPlan; i++) {
      const session_id = worker(done);
      const base = { repo_root: repoRoot, plan_slug: slug, subtask_index: i, session_id };
      const claimed = await call('task_plan_claim_subtask', { ...base, agent: agentOf(session_id) });
      const note = notes.next();
      await call('task_post', {
        task_id: claimed.task_id,
        session_id,
        kind: done % 50 === 7 ? NEGATIVE[done % 4] : note.kind,
        content: note.content,
      });
      const peer = worker(done + 1);
      if (done % 10 === 3 || done % 20 === 11) {
        await call('task_thread', {
          repo_root: repoRoot,
          branch: claimed.branch,
          session_id: peer,
          agent: agentOf(peer),
        });
      }
      if (done % 10 === 3) await pastExchange(call, claimed.task_id, peer, session_id);
      if (done % 20 === 11) await pastHandoff(call, claimed.task_id, session_id, peer);
      await call('task_plan_complete_subtask', { ...base, summary: `Done: ${note.content.slice(0, 60)}` });
      done++;
    }
  }
}

/** A question on the thread, answered, the answer read: history the inbox must not read again. */
async function pastExchange(call, task_id, asker, worker) {
  const question = await call('task_message', {
    task_id,
    session_id: asker,
    agent: agentOf(asker),
    to_agent: agentOf(worker) === 'cursor' ? 'any' : agentOf(worker),
    to_session_id: worker,
    urgency: 'needs_reply',
    content: 'Is the wave order right for this lane?',
  });
  const answer = await call('task_message', {
    task_id,
    session_id: worker,
    agent: agentOf(worker),
    to_agent: 'any',
    to_session_id: asker,
    reply_to: question.message_observation_id,
    content: 'Yes: the join waits on both lanes.',
  });
  await call('task_message_mark_read', { message_observation_id: answer.message_observation_id, session_id: asker });
}

/** A handoff between two past sessions, accepted. */
async function pastHandoff(call, task_id, from, to) {
  const handoff = await call('task_hand_off', {
    task_id,
    session_id: from,
    agent: agentOf(from),
    to_agent: 'any',
    to_session_id: to,
    summary: 'Take the review of this lane.',
  });
  await call('task_accept_handoff', { handoff_observation_id: handoff.handoff_observation_id, session_id: to });
}

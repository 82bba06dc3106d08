/**
 * The token goals of issue 17: what an agent pays, in cl100k tokens, for the answers of
 * (1) a `search` returning 10 hits and (2) the standard two-agent round, both measured
 * on the JSON text each tool answer carries as the MCP client receives it.
 *
 * The standard round, two agents in two server processes on one store that already holds
 * a dozen notes (SEARCH_NOTES, so the round's search answers a full page): claude opens a
 * task thread and codex joins it, they post five notes, codex searches and hydrates
 * three hits, claude claims a file and hands it off, codex accepts, claude messages
 * codex, who reads the inbox and marks the message read, claude publishes a plan of
 * three sub-tasks, codex asks for ready work, claims and completes a sub-task, then
 * checks attention_inbox and hivemind_context.
 *
 * Plain JavaScript shared by the budget test (apps/mcp-server/test/token-budget.test.ts)
 * and `pnpm bench` (bench/phases/tools-list.mjs), so both measure the same calls. The
 * caller passes `call(tool, args) => Promise<string>` per agent (the answer's text,
 * throwing on a tool error) and the tokenizer; this module imports no colony package.
 */

/** The goals: a 10-hit search and the whole round, in cl100k tokens. */
export const SEARCH_10_BUDGET = 400;
export const ROUND_BUDGET = 2_300;

export const CLAUDE = { session_id: 'claude-round-a1', agent: 'claude' };
export const CODEX = { session_id: 'codex-round-b2', agent: 'codex' };
export const ROUND_BRANCH = 'agent/claude/auth-refresh';
export const ROUND_QUERY = 'auth middleware token refresh';

/** Five thread posts as agents write them: a sentence or three, paths and decisions. */
const POSTS = [
  [
    'decision',
    'Decision: the auth middleware validates the bearer token before the rate limiter runs, so a rejected token never spends quota. Lives in apps/api/src/middleware/auth.ts.',
  ],
  [
    'note',
    'Token refresh currently races when two requests hit an expired token together; both call /oauth/refresh and the second one invalidates the first. Reproduced with apps/api/test/auth-refresh.test.ts.',
  ],
  [
    'question',
    'Should the refresh lock live in the middleware (per process) or in redis (per cluster)? The gateway runs 4 replicas, so a per-process lock still lets 4 refreshes through.',
  ],
  [
    'answer',
    'Per cluster: use the existing redis client in packages/cache with SET NX PX 5000 around the refresh; losers wait on the pub/sub channel for the new token instead of refreshing.',
  ],
  [
    'failed_approach',
    'Tried retrying the refresh with backoff in the middleware: it hides the race in tests but doubles refresh traffic under load and still logs users out when both retries lose.',
  ],
];

/**
 * Notes for the 10-hit search: realistic lengths (one to four sentences), every one
 * naming the query's terms somewhere, so the page is full and every snippet has a match
 * to centre on.
 */
const SEARCH_NOTES = [
  'The auth middleware now reads the session cookie before the bearer header; apps/web/src/server/auth.ts keeps the cookie path for the dashboard only.',
  'Found why auth fails after deploys: the middleware caches the JWKS for 24h and the rotated signing key is not in it. Cut the cache to 10 minutes and refetch on an unknown kid.',
  'Middleware order matters here: cors, then auth, then the body parser. Putting auth after the parser made every 401 pay for parsing a 5 MB upload first.',
  'Note for whoever takes the auth refactor: the legacy middleware in apps/api/src/legacy/session.ts still sets req.user from the old cookie, so both must agree on the user id format.',
  'Decision: auth errors from the middleware return RFC 7807 problem+json with a stable code (AUTH_EXPIRED, AUTH_INVALID); clients branch on the code, never the message.',
  'Blocked on the auth middleware tests: the fixture server in apps/api/test/_server.ts binds a fixed port and collides when vitest runs files in parallel. Switching it to port 0.',
  'The gateway strips the Authorization header on websocket upgrades, so the auth middleware never sees it there; the socket handshake now passes the token as a subprotocol instead.',
  'Question: does the admin router need its own auth middleware, or can it reuse the api one with a role check? Two copies already drifted once (the admin one skipped expiry).',
  'Measured the auth middleware: 0.4 ms per request of which 0.3 ms is verifying the signature; caching verified tokens for their remaining lifetime would drop it to a map lookup.',
  'Reverted the auth middleware change that trimmed whitespace from tokens: some clients send a trailing newline from env files and we now reject them with a clear 401 instead.',
  'Auth middleware logging: redact the token but keep its last 6 characters and the kid, which is enough to correlate a failing client without leaking a usable credential.',
  'Wrote the migration note for the auth middleware rename (requireAuth -> authenticate): a codemod in scripts/codemods/auth-rename.mjs rewrites imports across the monorepo.',
];
export const SEARCH_10_QUERY = 'auth middleware';

/**
 * Runs the round and answers the tokens of every answer, in order, plus the total.
 * `claude` and `codex` call one server process each (both on the same store).
 */
export async function runStandardRound({ claude, codex, repoRoot, countTokens }) {
  const steps = [];
  const step = async (agent, tool, args) => {
    const text = await agent(tool, args);
    steps.push({ tool, tokens: countTokens(text) });
    return JSON.parse(text);
  };
  const thread = { repo_root: repoRoot, branch: ROUND_BRANCH };
  const opened = await step(claude, 'task_thread', { ...thread, ...CLAUDE, title: 'Fix the auth token refresh race' });
  const taskId = opened.task_id;
  await step(codex, 'task_thread', { ...thread, ...CODEX });
  for (const [i, [kind, content]] of POSTS.entries()) {
    const poster = i % 2 === 0 ? [claude, CLAUDE] : [codex, CODEX];
    await step(poster[0], 'task_post', { task_id: taskId, session_id: poster[1].session_id, kind, content });
  }
  const hits = await step(codex, 'search', { query: ROUND_QUERY, limit: 10 });
  const ids = hits.slice(0, 3).map((h) => h.id);
  await step(codex, 'get_observations', { ids });
  const file = 'apps/api/src/middleware/auth.ts';
  await step(claude, 'task_claim_file', { task_id: taskId, session_id: CLAUDE.session_id, file_path: file });
  const handoff = await step(claude, 'task_hand_off', {
    task_id: taskId,
    ...CLAUDE,
    to_agent: 'codex',
    summary: 'Middleware validation landed; the refresh lock (redis SET NX) is yours.',
    next_steps: ['add the redis lock around refresh', 'run apps/api/test/auth-refresh.test.ts'],
    transferred_files: [file],
  });
  await step(codex, 'task_accept_handoff', {
    handoff_observation_id: handoff.handoff_observation_id,
    session_id: CODEX.session_id,
  });
  const message = await step(claude, 'task_message', {
    task_id: taskId,
    ...CLAUDE,
    to_agent: 'codex',
    content: 'The pub/sub channel name is auth:refresh:<user id>; keep it, the web app listens on it too.',
    urgency: 'needs_reply',
  });
  await step(codex, 'task_messages', { ...CODEX });
  await step(codex, 'task_message_mark_read', {
    message_observation_id: message.message_observation_id,
    session_id: CODEX.session_id,
  });
  const sub = (title, scope, depends_on = []) => ({ title, description: `${title}.`, file_scope: [scope], depends_on });
  const plan = await step(claude, 'task_plan_publish', {
    repo_root: repoRoot,
    slug: 'auth-refresh-lock',
    ...CLAUDE,
    title: 'Serialize token refresh across replicas',
    problem: 'Concurrent refreshes invalidate each other and log users out.',
    acceptance_criteria: ['One refresh per user at a time across the cluster'],
    subtasks: [
      sub('Add the redis refresh lock', 'packages/cache/src/refresh-lock.ts'),
      sub('Wait on the refresh channel', 'apps/api/src/middleware/auth-wait.ts', [0]),
      sub('Verify the refresh race test', 'apps/api/test/auth-refresh.test.ts', [0, 1]),
    ],
  });
  const ready = await step(codex, 'task_ready_for_agent', { ...CODEX, repo_root: repoRoot, auto_claim: false });
  const pick = ready.ready?.[0] ?? { plan_slug: plan.plan_slug, subtask_index: 0 };
  const subtask = { plan_slug: pick.plan_slug, subtask_index: pick.subtask_index, session_id: CODEX.session_id };
  await step(codex, 'task_plan_claim_subtask', { ...subtask, agent: CODEX.agent });
  await step(codex, 'task_plan_complete_subtask', { ...subtask, summary: 'Lock added with a 5 s PX; tests pass.' });
  await step(codex, 'attention_inbox', { ...CODEX, repo_root: repoRoot });
  await step(codex, 'hivemind_context', { repo_root: repoRoot, query: ROUND_QUERY });
  return { steps, total: steps.reduce((sum, s) => sum + s.tokens, 0) };
}

/**
 * Posts SEARCH_NOTES on a thread of their own (with `call`, one server): the memory the
 * round's search and the 10-hit search find. Call it once, before either.
 */
export async function seedSearchNotes({ call, repoRoot }) {
  const session = { session_id: 'claude-notes-c3', agent: 'claude' };
  const { task_id } = JSON.parse(
    await call('task_thread', { repo_root: repoRoot, branch: 'agent/claude/auth-notes', ...session }),
  );
  for (const content of SEARCH_NOTES) {
    await call('task_post', { task_id, session_id: session.session_id, kind: 'note', content });
  }
}

/** The tokens of a `search` that returns 10 hits (after seedSearchNotes), and the hits. */
export async function runSearch10({ call, countTokens }) {
  const text = await call('search', { query: SEARCH_10_QUERY, limit: 10 });
  return { tokens: countTokens(text), hits: JSON.parse(text) };
}

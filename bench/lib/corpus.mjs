/**
 * A deterministic, realistic-looking corpus of agent notes and search queries.
 *
 * Notes are 20-80 "words" drawn Zipf-like (s = 1.05, offset 8) from one ranked vocabulary of a
 * few thousand technical terms: plain words and their inflections, camelCase
 * identifiers, file paths (apps/x/src/y.ts), package names and error codes, with a
 * whole error message spliced in now and then. Queries are 1-3 terms drawn from the
 * same distribution, so they mix very frequent terms (that match a large share of the
 * corpus) with rare ones (that match a handful of notes, or none together).
 *
 * Everything comes from a seeded PRNG: the same seed gives the same corpus.
 */

/** sfc32: small, fast, good enough for benchmarks, and fully determined by its seed. */
export function prng(seed) {
  let a = 0x9e3779b9;
  let b = 0x243f6a88;
  let c = 0xb7e15162;
  let d = seed >>> 0;
  const next = () => {
    a >>>= 0;
    b >>>= 0;
    c >>>= 0;
    d >>>= 0;
    let t = (a + b) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    d = (d + 1) | 0;
    t = (t + d) | 0;
    c = (c + t) | 0;
    return (t >>> 0) / 4294967296;
  };
  for (let i = 0; i < 15; i++) next();
  return next;
}

const ROOTS = `
agent session task thread claim handoff relay message plan proposal spec attention metric
memory search index query token budget receipt snapshot timeline observation note decision
blocker question answer branch worktree commit merge rebase conflict diff patch review
schema migration table column index trigger transaction savepoint rollback lock timeout
cache buffer stream socket server client request response header payload body route
handler middleware router controller service adapter provider backend frontend worker queue
job retry backoff deadline heartbeat lease expiry ttl clock scheduler cron event listener
emitter hook plugin loader bundle chunk module import export package dependency version
lockfile registry publish release changeset build compile transpile typecheck lint format
test fixture mock stub spy assertion snapshot coverage benchmark profile trace span log
logger level warning error exception panic crash stack frame callback promise async await
future thread mutex semaphore channel pipe process child spawn signal exit status code
config setting option flag argument parameter variable constant environment secret key
auth token bearer session cookie login logout permission role policy scope grant revoke
user account profile avatar email password hash salt encrypt decrypt sign verify certificate
database sqlite postgres redis mongo query select insert update delete upsert join where
order limit offset cursor page pagination sort filter group aggregate count sum average
json yaml toml csv markdown html css dom node element component props state reducer store
effect render hydrate layout style theme color font icon button input form field validate
parse serialize encode decode compress decompress gzip brotli base64 utf8 unicode locale
file path directory folder symlink permission mode owner watcher glob pattern regex match
http https websocket grpc rest graphql endpoint url host port proxy gateway balancer dns
container docker image volume network pod cluster deploy rollout canary rollback replica
memory heap leak garbage collector allocation pointer reference slice array map set list
vector embedding similarity cosine ranker score rank bm25 fulltext tokenizer stemmer
prompt completion model context window provider quota rate limit usage cost billing
monorepo workspace turbo pnpm tsup vitest biome eslint prettier typescript javascript node
runtime esm commonjs require resolve alias path mapping declaration types generic interface
enum union literal tuple record partial readonly optional nullable undefined null boolean
string number integer float bigint date timestamp duration interval range window batch
fetch download upload retry cancel abort pause resume start stop restart shutdown graceful
idempotent idempotency duplicate dedupe unique constraint foreign primary composite
sharding partition replication consistency isolation serializable snapshot durability fsync
wal checkpoint vacuum analyze pragma busy journal synchronous readonly immutable append
stale fresh invalid valid missing unknown unexpected deprecated legacy flaky slow fast
refactor rename extract inline split merge cleanup remove add fix bump upgrade downgrade
`;

export const ZIPF_S = 1.05;
export const ZIPF_OFFSET = 8;

const SUFFIXES = ['s', 'ed', 'ing', 'er', 'able'];
const APPS = ['cli', 'mcp-server', 'worker', 'web', 'api', 'dashboard', 'gateway', 'indexer'];
const PKGS = ['storage', 'coordination', 'tools', 'core', 'providers', 'worktree', 'shared', 'config'];
const NPM = [
  'zod',
  'drizzle-orm',
  'better-sqlite3',
  'vitest',
  'tsup',
  'turbo',
  'citty',
  'gpt-tokenizer',
  'isomorphic-git',
  '@modelcontextprotocol/sdk',
  '@anthropic-ai/sdk',
  'fast-check',
  'esbuild',
  'typescript',
  'react',
  'express',
  'fastify',
  'undici',
];
const ERRORS = [
  'SQLITE_BUSY: database is locked',
  "TypeError: Cannot read properties of undefined (reading 'id')",
  "ENOENT: no such file or directory, open '.colony/settings.json'",
  'EADDRINUSE: address already in use 127.0.0.1:7777',
  'SQLITE_CONSTRAINT_UNIQUE: UNIQUE constraint failed: tasks.repo_root, tasks.branch',
  'HANDOFF_EXPIRED: handoff 42 expired before it was accepted',
  'PLAN_SUBTASK_NOT_AVAILABLE: sub-task already claimed',
  'INVALID_PARAMETERS: invalid arguments: limit: Too big',
  "Error [ERR_MODULE_NOT_FOUND]: Cannot find package 'zod'",
  'RangeError: Maximum call stack size exceeded',
  'fatal: refusing to merge unrelated histories',
  'error TS2322: Type string is not assignable to type number',
  'AssertionError: expected 3 to equal 4',
  'ECONNRESET: socket hang up',
  'JavaScript heap out of memory',
];
const ERROR_CODES = ERRORS.map((e) => e.split(':')[0].split(' ')[0]);

/** The ranked vocabulary (rank 0 most frequent). Deterministic for a seed. */
export function buildVocabulary(seed = 7) {
  const rand = prng(seed);
  const roots = [...new Set(ROOTS.split(/\s+/).filter(Boolean))];
  const words = new Set(roots);
  for (const r of roots) for (const s of SUFFIXES) if (rand() < 0.45) words.add(r + s);
  // camelCase identifiers: what agents paste from code
  for (let i = 0; i < 1400; i++) {
    const a = roots[Math.floor(rand() * roots.length)];
    const b = roots[Math.floor(rand() * roots.length)];
    if (a !== b) words.add(a + b[0].toUpperCase() + b.slice(1));
  }
  // ~200 paths: about one path per note on average, as in real agent notes
  for (const app of APPS) {
    for (let i = 0; i < 12; i++) {
      const file = roots[Math.floor(rand() * roots.length)];
      const dir = rand() < 0.5 ? 'src' : `src/${roots[Math.floor(rand() * roots.length)]}`;
      words.add(`apps/${app}/${dir}/${file}.ts`);
    }
  }
  for (const pkg of PKGS) {
    for (let i = 0; i < 12; i++) {
      const file = roots[Math.floor(rand() * roots.length)];
      words.add(`packages/${pkg}/src/${file}${rand() < 0.2 ? '.test' : ''}.ts`);
    }
    words.add(`@swarm/${pkg}`);
  }
  for (const n of NPM) words.add(n);
  for (const c of ERROR_CODES) words.add(c);
  // Shuffle, then keep plain roots biased toward the head: real notes repeat common words.
  const list = [...words];
  for (let i = list.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [list[i], list[j]] = [list[j], list[i]];
  }
  const rootSet = new Set(roots);
  const weighted = list
    .map((w, i) => ({ w, k: i + (rootSet.has(w) ? 0 : list.length * (0.1 + 0.6 * rand())) }))
    .sort((x, y) => x.k - y.k)
    .map((x) => x.w);
  return weighted;
}

/**
 * Draws ranks 0..n-1 Zipf-Mandelbrot-like: P(r) proportional to 1 / (r + q)^s. The
 * offset q flattens the head, since function words are not in the vocabulary: the most
 * frequent term is about 2% of drawn terms (like "test" or "fix" in real notes), not 12%.
 */
export function zipfSampler(n, s, rand, q = ZIPF_OFFSET) {
  const cdf = new Float64Array(n);
  let sum = 0;
  for (let r = 0; r < n; r++) {
    sum += 1 / (r + q) ** s;
    cdf[r] = sum;
  }
  return () => {
    const u = rand() * sum;
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (cdf[mid] < u) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}

/** Glue words: in notes (and the index), never in queries. */
const GLUE = ['the', 'to', 'in', 'for', 'and', 'of', 'on', 'with', 'is', 'not', 'a', 'it', 'now', 'after', 'when'];
const KINDS = ['note', 'note', 'note', 'note', 'decision', 'decision', 'blocker', 'question', 'answer'];
const STARTERS = ['Fixed', 'Found', 'Checked', 'Moved', 'Tried', 'Decided', 'Blocked on', 'Next:', 'Note:', 'Why'];

/**
 * A generator of notes. `next()` returns { kind, content, sessionIndex, taskIndex }.
 * Different seeds give independent streams over the same vocabulary.
 */
export function noteStream(vocabulary, seed) {
  const rand = prng(seed);
  const pick = zipfSampler(vocabulary.length, ZIPF_S, rand);
  return {
    next() {
      const words = 20 + Math.floor(rand() * 61);
      const parts = [STARTERS[Math.floor(rand() * STARTERS.length)]];
      for (let i = 1; i < words; i++) {
        const u = rand();
        if (u < 0.015) parts.push(ERRORS[Math.floor(rand() * ERRORS.length)]);
        else if (u < 0.25) parts.push(GLUE[Math.floor(rand() * GLUE.length)]);
        else parts.push(vocabulary[pick()]);
        if (rand() < 0.08) parts[parts.length - 1] += rand() < 0.7 ? '.' : ',';
      }
      return {
        kind: KINDS[Math.floor(rand() * KINDS.length)],
        content: `${parts.join(' ')}.`,
        // agents are busy to different degrees: a skewed share per session and task
        sessionIndex: Math.floor(rand() ** 2 * 40),
        taskIndex: Math.floor(rand() ** 1.5 * 16),
      };
    },
  };
}

/** `count` queries of 1-3 terms drawn from the note distribution. */
export function makeQueries(vocabulary, count, seed) {
  const rand = prng(seed);
  const pick = zipfSampler(vocabulary.length, ZIPF_S, rand);
  const queries = [];
  for (let i = 0; i < count; i++) {
    const n = 1 + Math.floor(rand() * 3);
    const terms = [];
    for (let j = 0; j < n; j++) {
      // A file path or package name is searched by one of its parts or as a whole.
      const w = vocabulary[pick()];
      terms.push(w.includes('/') && rand() < 0.5 ? w.split('/').at(-1).replace(/\.ts$/, '') : w);
    }
    queries.push(terms.join(' '));
  }
  return queries;
}

export const SESSION_COUNT = 40;
export const TASK_COUNT = 16;
export const sessionId = (i) => `${['claude', 'codex', 'cursor', 'worker'][i % 4]}-bench-${String(i).padStart(3, '0')}`;
export const taskBranch = (i) => `agent/bench/feature-${String(i).padStart(2, '0')}`;

#!/usr/bin/env node
/**
 * Foraging benchmark: a store with 100k notes (then 10k more after the scan, so the
 * pattern ids sit inside the history) and a repository of 50 npm examples. Measures
 * `colony.examples.scan` (first and unchanged), examples_query (all examples, one
 * example, a common term, no match) and examples_integrate_plan, and the answer sizes.
 * Run from the repo root on a build: `node bench/examples.mjs`. Report only.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const storage = await import(pathToFileURL(join(ROOT, 'packages/storage/dist/index.js')).href);
const core = await import(pathToFileURL(join(ROOT, 'packages/core/dist/index.js')).href);

const WORDS =
  'webhook signature stripe claim relay quota lexer parser router flask cargo token budget handler request'.split(' ');
const dir = mkdtempSync(join(tmpdir(), 'colony-bench-examples-'));
const db = join(dir, 'colony.db');
const colony = core.openColony({ dbPath: db, home: dir, receipts: false, embedder: null, roots: [dir] });
const store = storage.openStore({ path: db });
const ms = (t) => `${(performance.now() - t).toFixed(2)} ms`;

function notes(count, offset, text) {
  store.write(() => storage.upsertSession(store, { id: 'bench' }, 1));
  for (let b = 0; b < count / 1000; b++) {
    const rows = [];
    for (let i = 0; i < 1000; i++) {
      rows.push({ sessionId: 'bench', kind: 'note', content: text(b, i), ts: offset + b * 1000 + i, tokenCount: 8 });
    }
    storage.insertObservations(store, rows);
  }
}

notes(
  100_000,
  0,
  (b, i) => `note ${b}-${i} ${WORDS[i % 15]} ${WORDS[(i * 7) % 15]} ${WORDS[(b + i) % 15]} lorem ipsum`,
);
const repo = join(dir, 'repo');
for (let e = 0; e < 50; e++) {
  const d = join(repo, 'examples', `ex-${e}`);
  mkdirSync(join(d, 'src'), { recursive: true });
  const pkg = {
    name: `ex-${e}`,
    main: 'src/index.ts',
    dependencies: { stripe: '^14', [`dep${e}`]: '^1' },
    scripts: { build: 'tsc' },
  };
  writeFileSync(join(d, 'package.json'), JSON.stringify(pkg));
  writeFileSync(join(d, 'src/index.ts'), `// webhook signature handler ${e}\nexport const x = ${e};\n`);
  writeFileSync(join(d, 'README.md'), `# Example ${e}\nHandles the ${WORDS[e % 15]} webhook.`);
}
let t = performance.now();
const scan = colony.examples.scan(repo);
const written = scan.examples.reduce((n, x) => n + x.patterns_written, 0);
console.log(`scan, 50 examples (${written} patterns): ${ms(t)}`);
t = performance.now();
colony.examples.scan(repo);
console.log(`scan, 50 unchanged examples: ${ms(t)}`);
notes(10_000, 1e7, (_b, i) => `later ${WORDS[i % 15]} webhook signature`);

for (const [query, example] of [
  ['webhook signature', undefined],
  ['webhook signature', 'ex-7'],
  ['stripe', undefined],
  ['nomatchxyz', undefined],
]) {
  const times = [];
  let hits = [];
  for (let r = 0; r < 50; r++) {
    const s = performance.now();
    hits = colony.examples.query({ query, limit: 10, ...(example ? { example_name: example } : {}) });
    times.push(performance.now() - s);
  }
  times.sort((a, b) => a - b);
  console.log(
    `examples_query "${query}" (${example ?? 'all'}): p50 ${times[25].toFixed(2)} ms, p95 ${times[47].toFixed(2)} ms, ${hits.length} hits, ${JSON.stringify(hits).length} chars`,
  );
}
t = performance.now();
const plan = colony.examples.integratePlan({ repo_root: repo, example_name: 'ex-3' });
console.log(`examples_integrate_plan: ${ms(t)}, ${plan.budget.estimated_tokens_returned} tokens`);
const list = colony.examples.list({ repo_root: repo });
console.log(`examples_list: ${list.length} entries, ${JSON.stringify(list).length} chars`);
colony.close();
store.close();
rmSync(dir, { recursive: true, force: true });

#!/usr/bin/env node
/**
 * Summarises a V8 .cpuprofile (from `node --cpu-prof`): self time grouped by origin
 * (node's module loader, node internals, V8, or through the bundle's source map the
 * npm package / workspace package the code came from), then the heaviest functions by
 * inclusive time, named through source maps.
 *
 *   node --cpu-prof --cpu-prof-dir=/tmp/prof --cpu-prof-interval 50 apps/mcp-server/dist/main.js ...
 *   node bench/cpuprofile-summary.mjs /tmp/prof [inclusive-filter-regex] [rows]
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const [target, filter = '.', rowsArg = '25'] = process.argv.slice(2).filter((a) => a !== '--');
if (!target) {
  process.stderr.write('usage: node bench/cpuprofile-summary.mjs <file.cpuprofile|dir> [filter-regex] [rows]\n');
  process.exit(2);
}
const file = statSync(target).isDirectory()
  ? join(
      target,
      readdirSync(target)
        .filter((f) => f.endsWith('.cpuprofile'))
        .sort()
        .at(-1),
    )
  : target;
const profile = JSON.parse(readFileSync(file, 'utf8'));
const rows = Number(rowsArg);

const maps = new Map();
function sourceMapOf(url) {
  if (maps.has(url)) return maps.get(url);
  let map = null;
  try {
    const path = fileURLToPath(url);
    if (existsSync(`${path}.map`)) map = new SourceMap(JSON.parse(readFileSync(`${path}.map`, 'utf8')));
  } catch {
    // not a file URL, or no usable map
  }
  maps.set(url, map);
  return map;
}

function original(frame) {
  const map = frame.url ? sourceMapOf(frame.url) : null;
  const entry = map?.findEntry(frame.lineNumber, frame.columnNumber);
  if (entry?.originalSource) return { source: entry.originalSource, line: entry.originalLine + 1, name: entry.name };
  return { source: frame.url, line: frame.lineNumber + 1, name: undefined };
}

function origin(frame) {
  if (!frame.url) return frame.functionName.startsWith('(') ? frame.functionName : '(V8 / native)';
  if (frame.url.startsWith('node:internal/modules')) return 'node: module loading + compiling';
  if (frame.url.startsWith('node:')) return 'node: internals';
  const { source } = original(frame);
  if (source === frame.url) return `unmapped ${source.split('/').slice(-3).join('/')} (module top level, wrappers)`;
  const at = source.lastIndexOf('node_modules/');
  if (at >= 0) {
    const parts = source.slice(at + 'node_modules/'.length).split('/');
    return `npm ${parts[0].startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]}`;
  }
  const ws = /(packages|apps)\/([^/]+)\//.exec(source);
  if (ws) return `${ws[1]}/${ws[2]}`;
  // sources of bundled npm packages whose maps are relative to the package (e.g. drizzle's src/)
  return `bundled ${source.split('/').slice(-2).join('/')}`;
}

function label(frame) {
  if (!frame.url) return frame.functionName;
  const o = original(frame);
  const short = o.source
    .replace(/^.*node_modules\//, '')
    .split('/')
    .slice(-3)
    .join('/');
  return `${o.name ?? (frame.functionName || '(anonymous)')}  ${short}:${o.line}`;
}

const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const selfMs = new Map();
let total = 0;
profile.samples.forEach((id, i) => {
  const ms = (profile.timeDeltas[i] ?? 0) / 1000;
  total += ms;
  selfMs.set(id, (selfMs.get(id) ?? 0) + ms);
});

const byOrigin = new Map();
const inclusive = new Map();
for (const [id, ms] of selfMs) {
  const o = origin(nodes.get(id).callFrame);
  byOrigin.set(o, (byOrigin.get(o) ?? 0) + ms);
  const seen = new Set();
  for (let cur = id; cur !== undefined; cur = parent.get(cur)) {
    const key = label(nodes.get(cur).callFrame);
    if (seen.has(key)) continue;
    seen.add(key);
    inclusive.set(key, (inclusive.get(key) ?? 0) + ms);
  }
}

const print = (title, entries) => {
  process.stdout.write(`\n${title}\n`);
  for (const [k, ms] of entries) process.stdout.write(`${ms.toFixed(1).padStart(9)} ms  ${k}\n`);
};
process.stdout.write(`${file}: ${total.toFixed(0)} ms sampled\n`);
print('self time by origin', [...byOrigin].sort((a, b) => b[1] - a[1]).slice(0, rows));
const re = new RegExp(filter);
print(
  `inclusive time, functions matching /${filter}/`,
  [...inclusive]
    .filter(([k]) => re.test(k))
    .sort((a, b) => b[1] - a[1])
    .slice(0, rows),
);

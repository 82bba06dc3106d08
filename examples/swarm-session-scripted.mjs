#!/usr/bin/env node
// An agent session end to end, offline: two agents and a supervisor on a temporary git
// repository, driven by the `scripted` provider (no key, no network). Each agent writes
// a file through its `write` tool; when all are idle the session stops with --merge,
// leaving `Merge agent: <name>` commits. Run after `pnpm build`:
//   node examples/swarm-session-scripted.mjs
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runSwarmSession, swarmStatus } from '@swarm/core/runtime';

const dir = realpathSync(mkdtempSync(join(tmpdir(), 'colony-swarm-example-')));
const repo = join(dir, 'repo');
const home = join(dir, 'home');
mkdirSync(repo);
mkdirSync(home);
const git = (...args) => execFileSync('git', args, { cwd: repo, encoding: 'utf8' }).trim();
git('init', '-q', '-b', 'main');
git('-c', 'user.email=demo@example.com', '-c', 'user.name=demo', 'commit', '-q', '--allow-empty', '-m', 'init');
process.env.GIT_AUTHOR_NAME = process.env.GIT_COMMITTER_NAME = 'demo';
process.env.GIT_AUTHOR_EMAIL = process.env.GIT_COMMITTER_EMAIL = 'demo@example.com';

const writes = (file, text) => [
  {
    tool_calls: [{ name: 'write', input: { path: file, content: text } }],
    usage: { input_tokens: 900, output_tokens: 60 },
  },
  { text: `Wrote ${file}.` },
  { text: 'Nothing left to do.' },
];
writeFileSync(
  join(home, 'settings.json'),
  JSON.stringify({
    version: 2,
    [repo]: {
      agents: [
        { name: 'backend', prompt: 'You own the API.', provider: 'api' },
        { name: 'frontend', prompt: 'You own the UI.', provider: 'ui' },
      ],
      providers: {
        api: { type: 'scripted', script: writes('api.ts', 'export const api = 1;\n') },
        ui: { type: 'scripted', script: writes('ui.ts', 'export const ui = 1;\n') },
        default: { type: 'scripted', script: [{ text: 'Nothing to merge yet.' }] },
      },
      defaults: { liveness: { idle_nudge_after_secs: null } },
    },
  }),
);

const controller = new AbortController();
const watch = setInterval(async () => {
  const status = await swarmStatus({ cwd: repo, home });
  if (status.agents.length && status.agents.every((a) => a.state === 'SessionComplete')) {
    clearInterval(watch);
    controller.abort();
  }
}, 200);
const { report } = await runSwarmSession({
  cwd: repo,
  home,
  print: (line) => console.log(line),
  signal: controller.signal,
});
console.log(`\n${report.agents.map((a) => `${a.name}: ${a.outcome}`).join('\n')}`);
console.log(`\ngit log --first-parent:\n${git('log', '--first-parent', '--format=%s')}`);
process.exit(0);

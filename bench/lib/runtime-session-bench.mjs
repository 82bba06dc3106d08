/**
 * The agent runtime on colony's real parts (beside runtime-bench.mjs, which measures bare
 * runners on the in-memory mailbox):
 * 1. urgent-interrupt latency through the colony mailbox: `task_message` (blocking) on
 *    colony's store, the in-process push, until the held scripted request is aborted and
 *    the next one starts (its prompt consumed from the store, marked read in one write);
 * 2. the session runner's RSS with 10 scripted agents plus the supervisor: `colony swarm
 *    start --no-tui` as its own process on a temp repository, colony's store and 11 git
 *    worktrees, read from /proc once every agent has run two sessions and idles.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { timeInterrupt } from './runtime-bench.mjs';

export async function benchRuntimeSession({ root, row, log, summarize, fmtMs, rounds = 50 }) {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'colony-bench-session-')));
  try {
    log('[runtime] urgent interrupt through the colony mailbox; session runner RSS, 10 agents on worktrees');
    await mailboxLatency({ root, dir, row, summarize, fmtMs, rounds });
    await sessionRss({ root, dir, row });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function mailboxLatency({ root, dir, row, summarize, fmtMs, rounds }) {
  const core = await import(pathToFileURL(resolve(root, 'packages/core/dist/index.js')).href);
  const runtime = await import(pathToFileURL(resolve(root, 'packages/runtime/dist/index.js')).href);
  const providers = await import(pathToFileURL(resolve(root, 'packages/providers/dist/index.js')).href);
  const colony = core.openColony({ home: join(dir, 'home'), receipts: false });
  const caller = {
    async callTool(name, args) {
      const out = await colony.handleToolCall(name, args);
      return out.ok ? { ok: true, text: out.text, value: out.value } : { ok: false, text: out.text };
    },
  };
  const markRead = async ({ session_id, task_id, ids }) =>
    colony.messages
      .markReadAll({ session_id, task_id, message_observation_ids: ids })
      .filter((r) => r.newly_read)
      .map((r) => r.id);
  const latencies = [];
  try {
    for (let i = 0; i < rounds; i++) {
      const session = `20260101-${(0x1000 + i).toString(16)}`;
      const mailbox = await runtime.colonyMailbox({
        caller,
        markRead,
        repo_root: join(dir, 'repo'),
        branch: 'main',
        session_id: session,
        agents: ['backend'],
      });
      let nextAt = 0;
      const script = (_request, index) => {
        if (index === 0) return { delay_ms: 60_000 };
        nextAt ||= performance.now();
        return { text: 'ok' };
      };
      const runner = new runtime.AgentRunner({
        name: 'backend',
        agent_prompt: 'You are backend.',
        mode: 'code',
        model: 'sonnet',
        provider: providers.scriptedProvider(script),
        tools: runtime.agentTools({ worktree: dir, agent: 'backend', colony_session_id: 's', env: {}, mailbox }),
        mailbox,
        worktree: dir,
        session_id: session,
        colony_session_id: `swarm-${session}-backend`,
        db_path: colony.dbPath,
        agent_names: ['backend'],
        now: () => Date.now(),
        environment: async () => ({
          platform: 'linux',
          os_version: '',
          shell: 'sh',
          cwd: dir,
          git_status: '',
          recent_commits: '',
        }),
      });
      latencies.push(await timeInterrupt(runtime, runner, mailbox, () => nextAt));
    }
  } finally {
    colony.close();
  }
  const lat = summarize(latencies);
  row(
    'runtime: urgent interrupt -> next request (colony mailbox, real store)',
    `p50 ${fmtMs(lat.p50)} ms, p95 ${fmtMs(lat.p95)} ms`,
    'p95 < 100 ms',
    lat.p95 < 100,
  );
}

async function sessionRss({ root, dir, row }) {
  const cli = join(root, 'apps/cli/dist/cli.js');
  const repo = join(dir, 'rss-repo');
  const home = join(dir, 'rss-home');
  mkdirSync(repo);
  mkdirSync(home);
  const env = {
    ...process.env,
    COLONY_HOME: home,
    GIT_AUTHOR_NAME: 'b',
    GIT_AUTHOR_EMAIL: 'b@b',
    GIT_COMMITTER_NAME: 'b',
    GIT_COMMITTER_EMAIL: 'b@b',
  };
  const git = (...args) => spawnSync('git', args, { cwd: repo, env, encoding: 'utf8' });
  git('init', '-q', '-b', 'main');
  writeFileSync(join(repo, 'README.md'), '# bench\n');
  git('add', '.');
  git('commit', '-qm', 'init');
  const turn = {
    tool_calls: [{ name: 'glob', input: { pattern: '*' } }],
    usage: { input_tokens: 1000, output_tokens: 100 },
  };
  const script = [...Array(20).fill(turn), { text: 'done' }, ...Array(10).fill({ text: 'idle' })];
  const agents = Array.from({ length: 10 }, (_, i) => ({ name: `agent-${i}`, prompt: `You are agent ${i}.` }));
  writeFileSync(
    join(home, 'settings.json'),
    JSON.stringify({
      version: 2,
      [repo]: {
        agents,
        providers: { default: { type: 'scripted', script } },
        defaults: { liveness: { idle_nudge_after_secs: null } },
      },
    }),
  );
  const child = spawn(process.execPath, [cli, 'swarm', 'start', '--no-tui', '--home', home], {
    cwd: repo,
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const exited = new Promise((r) => child.on('exit', r));
  const statusFile = join(repo, '.colony', 'session-status.json');
  let rssMiB = Number.NaN;
  try {
    const deadline = Date.now() + 120_000;
    for (;;) {
      if (Date.now() > deadline) throw new Error('the 11 agents did not idle within 120 s');
      if (child.exitCode !== null) throw new Error(`colony swarm start exited ${child.exitCode}`);
      const status = existsSync(statusFile) ? JSON.parse(readFileSync(statusFile, 'utf8')) : null;
      if (
        status?.agents?.length === 11 &&
        status.agents.every((a) => a.state === 'SessionComplete' && a.session_seq >= 2)
      )
        break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const vm = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
    rssMiB = Number(vm?.[1]) / 1024;
  } finally {
    spawnSync(process.execPath, [cli, 'swarm', 'stop', '--discard', '--home', home], { cwd: repo, env });
    if (child.exitCode === null) setTimeout(() => child.kill('SIGKILL'), 30_000).unref();
    await exited;
  }
  row(
    'runtime: session runner RSS, 10 agents + supervisor (scripted, real store and worktrees)',
    `${rssMiB.toFixed(0)} MiB`,
    '< 200 MiB',
    rssMiB < 200,
  );
}

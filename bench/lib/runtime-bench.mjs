/**
 * The agent runtime's lines: urgent-interrupt latency (in-process: the message written
 * to the in-memory mailbox until the held provider request is aborted), bare-runner RSS
 * with 10 agents on the scripted provider, and per-turn runtime overhead over the
 * provider call (a scripted turn with no delay: everything measured is the runtime's).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

export async function benchRuntime({ root, row, log, summarize, fmtMs, rounds = 50 }) {
  const runtime = await import(pathToFileURL(resolve(root, 'packages/runtime/dist/index.js')).href);
  const providers = await import(pathToFileURL(resolve(root, 'packages/providers/dist/index.js')).href);
  const dir = mkdtempSync(join(tmpdir(), 'colony-bench-runtime-'));
  const env = async () => ({
    platform: 'linux',
    os_version: '',
    shell: 'sh',
    cwd: dir,
    git_status: '',
    recent_commits: '',
  });
  const make = (name, script, mailbox, names) =>
    new runtime.AgentRunner({
      name,
      agent_prompt: `You are ${name}.`,
      mode: 'code',
      model: 'sonnet',
      provider: providers.scriptedProvider(script),
      tools: runtime.agentTools({ worktree: dir, agent: name, colony_session_id: `s-${name}`, env: {}, mailbox }),
      mailbox,
      worktree: dir,
      session_id: '20260101-beef',
      colony_session_id: `s-${name}`,
      db_path: join(dir, 'colony.db'),
      agent_names: names,
      now: () => Date.now(),
      environment: env,
    });
  try {
    log('[runtime] urgent interrupt latency, RSS with 10 agents, per-turn overhead');
    // 1. Interrupt latency: a held request (the scripted delay honours the abort).
    const latencies = [];
    for (let i = 0; i < rounds; i++) {
      const mailbox = runtime.memoryMailbox(() => Date.now());
      let abortedAt = 0;
      const script = (_request, index) => {
        if (index === 0) {
          return { delay_ms: 60_000 };
        }
        abortedAt ||= performance.now();
        return { text: 'ok' };
      };
      const runner = make('backend', script, mailbox, ['backend']);
      latencies.push(await timeInterrupt(runtime, runner, mailbox, () => abortedAt));
    }
    const lat = summarize(latencies);
    row(
      'runtime: urgent interrupt -> next request (in-process)',
      `p50 ${fmtMs(lat.p50)} ms, p95 ${fmtMs(lat.p95)} ms`,
      'p95 < 100 ms',
      lat.p95 < 100,
    );

    // 2. RSS with 10 agents, each running 20 tool turns (glob) on the scripted provider.
    const names = Array.from({ length: 10 }, (_, i) => `agent-${i}`);
    const mailbox = runtime.memoryMailbox(() => Date.now());
    const registry = new runtime.AgentRegistry();
    const turn = {
      tool_calls: [{ name: 'glob', input: { pattern: '*' } }],
      usage: { input_tokens: 1000, output_tokens: 100 },
    };
    for (const name of names)
      registry.register(make(name, [...Array(20).fill(turn), { text: 'done' }, { text: 'idle' }], mailbox, names));
    const done = registry.startAll();
    while (!registry.states().every((s) => s.state === 'SessionComplete' && s.session_seq >= 2))
      await new Promise((r) => setTimeout(r, 10));
    globalThis.gc?.();
    const rssMiB = process.memoryUsage().rss / 1024 / 1024;
    await registry.shutdown();
    await done;
    row(
      'runtime: bare runners RSS, 10 agents (scripted provider, in-memory mailbox)',
      `${rssMiB.toFixed(0)} MiB`,
      '< 200 MiB',
      rssMiB < 200,
    );

    // 3. Per-turn overhead: N no-delay turns with one cheap tool each, time per turn.
    const turns = rounds * 10;
    const one = runtime.memoryMailbox(() => Date.now());
    const runner = make(
      'solo',
      [
        ...Array(turns).fill({ tool_calls: [{ name: 'glob', input: { pattern: 'nothing-*' } }] }),
        { text: 'done' },
        { text: 'idle' },
      ],
      one,
      ['solo'],
    );
    const t0 = performance.now();
    const solo = runner.start();
    while (runner.snapshot().session_seq < 2 || runner.snapshot().state !== 'SessionComplete')
      await new Promise((r) => setImmediate(r));
    const perTurn = (performance.now() - t0) / (turns + 2);
    await runner.stop();
    await solo;
    row(
      'runtime: per-turn overhead over the provider call (incl. one glob tool)',
      `${fmtMs(perTurn)} ms`,
      '< 5 ms',
      perTurn < 5,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * One urgent interrupt of `runner` (whose first turn is held open): ms from the operator's
 * urgent send until `nextAt()` (the time the next request started) is set.
 */
export async function timeInterrupt(runtime, runner, mailbox, nextAt) {
  const registry = new runtime.AgentRegistry();
  registry.register(runner);
  const router = runtime.startRouter(registry, mailbox, { poll_ms: null });
  const done = registry.startAll();
  while (runner.snapshot().state !== 'Spawning' || runner.snapshot().session_seq !== 1)
    await new Promise((r) => setTimeout(r, 1));
  await new Promise((r) => setTimeout(r, 2));
  const t0 = performance.now();
  await mailbox.send({ from: 'operator', to: 'backend', body: 'stop', urgent: true });
  while (!nextAt()) await new Promise((r) => setImmediate(r));
  const ms = nextAt() - t0;
  await registry.shutdown();
  await done;
  router.stop();
  return ms;
}

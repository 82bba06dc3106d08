/**
 * @module runtime/session-runner
 * The swarm session runner, what `colony swarm start` and `colony-worker` run (seed 003's
 * 13-step start flow; the seed calls this process the orchestrator, a name colony keeps
 * for seed 000's `Orchestrator`): load the
 * project's settings, check git, recover a dead session, create the session and one
 * worktree per agent plus the supervisor (merged last), join every agent and the
 * operator to colony's task thread, connect the project's MCP servers (closed when
 * the session ends, however it ends), start the runners and the router, write the
 * status file for `colony swarm status`, then wait: SIGTERM/SIGINT or a stop request
 * file (from `colony swarm stop`) ends it gracefully (OperatorStop to all, auto-commit,
 * merge/squash/discard, clean-up). Runs in the foreground; headless prints state changes.
 */
import { appendFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import {
  AgentRegistry,
  type AgentSnapshot,
  BudgetMeter,
  finishSession,
  LivenessMonitor,
  loadRuntimeConfig,
  readStopRequest,
  type SessionInfo,
  type StopMode,
  type StopReport,
  sessionPaths,
  startMcpServers,
  startRouter,
  startSession,
  writeAtomic,
} from '@swarm/runtime';
import { openRepo } from '@swarm/worktree';
import { connectColony, isPostgresUrl } from '../connect-colony.js';
import type { Colony } from '../open-colony.js';
import { buildRunners, callerOf, SUPERVISOR, sessionMailbox } from './_agents.js';
import { startCheckpoints } from './_checkpoints.js';
import { planCounts } from './_status.js';
import { sessionWakeSource } from './_wakes.js';
import { agentWasmTools } from './_wasm.js';

export class SwarmStartError extends Error {}

export interface RunSwarmSessionOptions {
  readonly cwd: string;
  readonly home?: string;
  readonly dbPath?: string;
  readonly stash?: boolean;
  readonly init?: boolean;
  /** Headless output (state changes, the final report). */
  readonly print: (line: string) => void;
  /** Called once the session is up. */
  readonly onStarted?: (info: SessionInfo) => void;
  /** Ends the session (besides signals and the stop request file). */
  readonly signal?: AbortSignal;
}

export interface RunSwarmSessionResult {
  readonly info: SessionInfo;
  readonly report: StopReport;
}

export async function runSwarmSession(options: RunSwarmSessionOptions): Promise<RunSwarmSessionResult> {
  const root = await openRepo(options.cwd).then(
    (r) => r.root,
    () => options.cwd,
  );
  const colony = await connectColony({
    ...(options.home ? { home: options.home } : {}),
    ...(options.dbPath ? { dbPath: options.dbPath } : {}),
  });
  try {
    return await run(colony, root, options);
  } finally {
    await colony.close();
  }
}

async function run(colony: Colony, root: string, options: RunSwarmSessionOptions): Promise<RunSwarmSessionResult> {
  // A stop may signal as soon as the session files exist, before the wait below: kept, not fatal.
  const latch = signalLatch();
  /** What the session opened that must close however it ends (MCP servers). */
  const closers: Array<() => Promise<void>> = [];
  try {
    return await runLatched(colony, root, options, latch, closers);
  } finally {
    latch.release();
    for (const close of closers.reverse()) await close().catch(() => {});
  }
}

async function runLatched(
  colony: Colony,
  root: string,
  options: RunSwarmSessionOptions,
  latch: SignalLatch,
  closers: Array<() => Promise<void>>,
): Promise<RunSwarmSessionResult> {
  const loaded = loadRuntimeConfig({ home: colony.home, projectRoot: root });
  if (!loaded.config) throw new SwarmStartError(loaded.errors.map((e) => e.message).join('\n'));
  for (const warning of loaded.warnings) options.print(`warning: ${warning}`);
  const config = loaded.config;
  const names = [...config.agents.map((a) => a.name), SUPERVISOR];
  const started = await startSession({
    cwd: options.cwd,
    agents: names,
    supervisor: SUPERVISOR,
    ...(options.stash ? { stash: true } : {}),
    ...(options.init ? { init: true } : {}),
    now: colony.clock.now(),
    db_path: colony.dbPath,
    pid: process.pid,
    log: options.print,
  });
  const { info } = started;
  const repoRoot = started.repo.root;
  if (started.recovered) {
    const r = started.recovered;
    options.print(
      `recovered session ${r.session_id}: auto-committed [${r.auto_committed.join(', ')}], kept branches [${r.kept_branches.join(', ')}]`,
    );
  }
  const paths = sessionPaths(repoRoot);
  const logDir = join(paths.logs, info.id);
  mkdirSync(logDir, { recursive: true });
  // `colony swarm logs --session N` orders past sessions by this start time.
  writeAtomic(join(logDir, 'session.json'), `${JSON.stringify({ id: info.id, started_at: info.started_at })}\n`);
  const log = (agent: string, line: string) => {
    appendFileSync(join(logDir, `${agent}.log`), `${new Date(colony.clock.now()).toISOString()} ${line}\n`);
  };
  const caller = callerOf(colony);
  const mailbox = await sessionMailbox(colony, {
    repo_root: repoRoot,
    branch: info.base_branch,
    session_id: info.id,
    agents: names,
  });
  // Seed start step 9: the project's MCP servers, shared by every agent; a failed one is a warning.
  const mcp = await startMcpServers(config.raw.mcpServers, { cwd: repoRoot });
  closers.push(() => mcp.close());
  for (const warning of mcp.warnings) options.print(`warning: ${warning}`);
  for (const s of mcp.servers.filter((s) => s.state === 'connected')) {
    options.print(`mcp: ${s.name} connected (${s.tools.length} tools)`);
  }
  const registry = new AgentRegistry();
  let plans = { available: 0, claimed: 0, completed: 0 };
  const writeStatus = () => {
    const status = {
      session: { id: info.id, base_commit: info.base_commit, started_at: info.started_at, pid: info.pid, active: true },
      agents: registry.states().map(statusOf),
      plans,
    };
    writeAtomic(paths.status, `${JSON.stringify(status, null, 2)}\n`);
  };
  const onChange = (s: AgentSnapshot) => {
    options.print(`${s.name}: ${s.state}${s.stop_reason && s.state === 'Stopped' ? ` (${s.stop_reason})` : ''}`);
    writeStatus();
  };
  for (const runner of buildRunners({
    colony,
    caller,
    config,
    info,
    root: repoRoot,
    worktrees: started.worktrees,
    mailbox,
    session_budget: new BudgetMeter(config.defaults.session_budget, 'session'),
    mcp,
    onChange,
    log,
    wasm: await agentWasmTools(config, started.worktrees, caller),
  })) {
    registry.register(runner);
  }
  // The store is a SQLite file until the async store lands; a PostgreSQL URL here selects LISTEN/NOTIFY.
  const wakes = sessionWakeSource({
    // The URL itself (colony.dbPath masks its password): LISTEN needs to log in.
    store: isPostgresUrl(options.dbPath) ? options.dbPath : colony.dbPath,
    mailbox,
    session_id: info.id,
    agents: names,
    task_id: mailbox.task_id,
    poll_ms: 200,
    log: (l) => log('router', l),
  });
  const router = startRouter(registry, mailbox, { wakes, log: (l) => log('router', l) });
  const checkpoints = startCheckpoints(() => colony.checkpoint('PASSIVE'), { log: (l) => log('router', l) });
  writeStatus();
  options.print(
    `session ${info.id} started: ${names.join(', ')} (base ${info.base_commit.slice(0, 7)} on ${info.base_branch})`,
  );
  options.onStarted?.(info);
  const agentsDone = registry.startAll();
  const refreshPlans = async () => {
    plans = await planCounts(caller, repoRoot).catch(() => plans);
    writeStatus();
  };
  await refreshPlans();
  const monitor = new LivenessMonitor(
    registry,
    mailbox,
    config.defaults.liveness,
    (name) => registry.get(name)?.options.hooks ?? null,
  );
  const ticker = setInterval(() => {
    void refreshPlans();
    void monitor.check(colony.clock.now()).then((lines) => {
      for (const line of lines) options.print(`liveness: ${line}`);
    });
  }, 1000);
  const { mode, by } = await waitForStop(repoRoot, options.signal, latch, agentsDone);
  if (by === 'agents') options.print(`all agents stopped: ending session ${info.id} (${mode})`);
  options.print(`stopping session ${info.id} (${mode})`);
  await registry.shutdown();
  await agentsDone;
  // Async hooks (each bounded by its timeout) finish before the worktrees go.
  await Promise.all(registry.names().map((n) => registry.get(n)?.options.hooks?.drain()));
  router.stop();
  checkpoints.stop();
  clearInterval(ticker);
  const report = await finishSession(repoRoot, info, mode);
  for (const a of report.agents) {
    options.print(
      `${a.name}: ${a.outcome}${a.files ? ` (${a.files.join(', ')})` : ''}${a.message ? ` (${a.message})` : ''}${a.branch_deleted ? '' : ` (branch ${a.branch} kept)`}`,
    );
  }
  options.print(`session ${info.id} stopped`);
  return { info, report };
}

function statusOf(s: AgentSnapshot) {
  return {
    name: s.name,
    state: s.state,
    session_seq: s.session_seq,
    consecutive_errors: s.consecutive_errors,
    total_errors: s.total_errors,
    last_activity: new Date(s.last_activity).toISOString(),
    stop_reason: s.stop_reason,
    tokens: s.tokens,
    cost_usd: s.cost_usd,
  };
}

interface SignalLatch {
  /** Whether SIGTERM or SIGINT arrived since the latch was set. */
  received(): boolean;
  release(): void;
}

/**
 * Catches SIGTERM/SIGINT from the start of `colony swarm start`, so a stop that signals
 * while the session is still starting ends it gracefully instead of killing the process
 * (Node's default) mid-start.
 */
function signalLatch(): SignalLatch {
  let got = false;
  const on = () => {
    got = true;
  };
  process.on('SIGTERM', on);
  process.on('SIGINT', on);
  return {
    received: () => got,
    release: () => {
      process.off('SIGTERM', on);
      process.off('SIGINT', on);
    },
  };
}

/** Who ended the session: a stop (request file, signal, abort) or every agent having stopped. */
interface StopCause {
  readonly mode: StopMode;
  readonly by: 'stop' | 'agents';
}

/**
 * Resolves with the stop mode: a stop request file, SIGTERM/SIGINT (merge), the abort
 * signal, or every agent Stopped (seed 003 start step 13), which ends the session with
 * the default stop mode (merge), like a stop without flags.
 */
function waitForStop(
  root: string,
  signal: AbortSignal | undefined,
  latch: SignalLatch,
  agentsDone: Promise<void>,
): Promise<StopCause> {
  return new Promise((resolve) => {
    if (latch.received()) {
      resolve({ mode: readStopRequest(root)?.mode ?? 'merge', by: 'stop' });
      return;
    }
    let settled = false;
    const done = (mode: StopMode, by: StopCause['by'] = 'stop') => {
      if (settled) return;
      settled = true;
      clearInterval(timer);
      process.off('SIGTERM', onSignal);
      process.off('SIGINT', onSignal);
      signal?.removeEventListener('abort', onAbort);
      resolve({ mode, by });
    };
    const onSignal = () => done(readStopRequest(root)?.mode ?? 'merge');
    const onAbort = () => done(readStopRequest(root)?.mode ?? 'merge');
    const timer = setInterval(() => {
      const request = readStopRequest(root);
      if (request) done(request.mode);
    }, 200);
    process.on('SIGTERM', onSignal);
    process.on('SIGINT', onSignal);
    signal?.addEventListener('abort', onAbort, { once: true });
    const allStopped = () => done(readStopRequest(root)?.mode ?? 'merge', 'agents');
    agentsDone.then(allStopped, allStopped);
  });
}

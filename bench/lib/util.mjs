/**
 * Shared bench helpers: percentiles, timeouts, child processes that are always
 * killed, a raw line-delimited JSON-RPC client over a child's stdio, machine facts.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import os from 'node:os';

// ---------------------------------------------------------------- statistics

/** Nearest-rank percentile of an ascending-sorted array. */
export function percentile(sorted, p) {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))];
}

export function summarize(samples) {
  const sorted = Float64Array.from(samples).sort();
  const sum = sorted.reduce((a, b) => a + b, 0);
  return {
    n: sorted.length,
    min: sorted[0],
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    p99: percentile(sorted, 99),
    max: sorted[sorted.length - 1],
    mean: sum / sorted.length,
  };
}

export function median(samples) {
  return summarize(samples).p50;
}

// ---------------------------------------------------------------- timeouts

export function withTimeout(promise, ms, label) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${label}: no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// ---------------------------------------------------------------- child processes

const children = new Set();

/** Spawns a child that is killed when the bench exits, however it exits. */
export function spawnTracked(command, args, options = {}) {
  const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'pipe'], ...options });
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

/** Registers a child spawned elsewhere (e.g. by the MCP SDK transport) for cleanup. */
export function trackPid(pid) {
  const entry = { pid, kill: (sig) => safeKill(pid, sig), exitCode: null };
  children.add(entry);
  return () => children.delete(entry);
}

function safeKill(pid, sig) {
  try {
    process.kill(pid, sig);
  } catch {
    // already gone
  }
}

export function killAllChildren() {
  for (const child of children) {
    if (child.exitCode === null) child.kill('SIGKILL');
  }
  children.clear();
}

/** Ends a child: closes stdin, then SIGTERM, then SIGKILL; resolves when it has exited. */
export async function stopChild(child, graceMs = 1000) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.stdin?.end();
  if (await Promise.race([exited.then(() => true), sleep(graceMs).then(() => false)])) return;
  child.kill('SIGTERM');
  if (await Promise.race([exited.then(() => true), sleep(graceMs).then(() => false)])) return;
  child.kill('SIGKILL');
  await exited;
}

/** VmRSS (and VmHWM) of a process, in MiB, from /proc/<pid>/status. */
export function rssOf(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (field) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN);
  return { rss: kib('VmRSS') / 1024, hwm: kib('VmHWM') / 1024 };
}

/**
 * CPU time (user + system, ms) a process has used so far, from /proc/<pid>/stat (Linux;
 * null elsewhere). Clock ticks: 10 ms resolution, so measure spans of a few seconds.
 */
export function cpuMsOf(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return null;
  }
}

/**
 * A minimal JSON-RPC client over a child's stdin/stdout, one message per line (the MCP
 * stdio framing), with no SDK in between.
 */
export class RawRpc {
  #child;
  #buffer = '';
  #nextId = 1;
  #pending = new Map();
  #stderr = '';

  constructor(child) {
    this.#child = child;
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk) => this.#onData(chunk));
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk) => {
      if (this.#stderr.length < 8000) this.#stderr += chunk;
    });
    child.once('exit', (code, signal) => {
      for (const { reject } of this.#pending.values()) {
        reject(new Error(`server exited (${signal ?? code}) before answering; stderr: ${this.#stderr.trim()}`));
      }
      this.#pending.clear();
    });
  }

  get pid() {
    return this.#child.pid;
  }

  #onData(chunk) {
    this.#buffer += chunk;
    let nl = this.#buffer.indexOf('\n');
    while (nl >= 0) {
      const line = this.#buffer.slice(0, nl).trim();
      this.#buffer = this.#buffer.slice(nl + 1);
      nl = this.#buffer.indexOf('\n');
      if (!line) continue;
      let message;
      try {
        message = JSON.parse(line);
      } catch {
        continue; // not ours
      }
      const waiter = this.#pending.get(message.id);
      if (!waiter) continue;
      this.#pending.delete(message.id);
      if (message.error) waiter.reject(new Error(`${message.error.code}: ${message.error.message}`));
      else waiter.resolve(message.result);
    }
  }

  request(method, params, timeoutMs = 15_000) {
    const id = this.#nextId++;
    const answer = new Promise((resolve, reject) => this.#pending.set(id, { resolve, reject }));
    this.#child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
    return withTimeout(answer, timeoutMs, `${method}`);
  }

  notify(method, params) {
    this.#child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method, ...(params ? { params } : {}) })}\n`);
  }

  async initialize() {
    const result = await this.request('initialize', INITIALIZE_PARAMS);
    this.notify('notifications/initialized');
    return result;
  }
}

export const INITIALIZE_PARAMS = {
  protocolVersion: '2025-06-18',
  capabilities: {},
  clientInfo: { name: 'colony-bench', version: '0.0.0' },
};

// ---------------------------------------------------------------- machine facts

export function machineFacts() {
  const cpuinfo = safeRead('/proc/cpuinfo');
  const meminfo = safeRead('/proc/meminfo');
  const model = /^model name\s*:\s*(.+)$/m.exec(cpuinfo)?.[1]?.trim() ?? os.cpus()[0]?.model ?? 'unknown';
  const mhz = /^cpu MHz\s*:\s*(.+)$/m.exec(cpuinfo)?.[1]?.trim();
  const memKiB = Number(/^MemTotal:\s+(\d+) kB/m.exec(meminfo)?.[1] ?? 0);
  return {
    cpu: model,
    cpu_mhz: mhz ? Math.round(Number(mhz)) : null,
    cores: os.availableParallelism?.() ?? os.cpus().length,
    ram_gib: memKiB ? Math.round((memKiB / 1024 / 1024) * 10) / 10 : Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
    node: process.version,
    platform: `${os.platform()} ${os.release()} ${os.arch()}`,
    loadavg_at_start: os.loadavg().map((l) => Math.round(l * 100) / 100),
    date: new Date().toISOString(),
  };
}

function safeRead(path) {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}

// ---------------------------------------------------------------- formatting

export const fmtMs = (ms) => (ms < 10 ? ms.toFixed(2) : ms < 100 ? ms.toFixed(1) : ms.toFixed(0));
export const fmtRate = (n) => Math.round(n).toLocaleString('en-US');

/** Renders rows of cells as an aligned plain-text table. */
export function renderTable(header, rows) {
  const all = [header, ...rows];
  const widths = header.map((_, i) => Math.max(...all.map((r) => String(r[i] ?? '').length)));
  const line = (r) => r.map((c, i) => String(c ?? '').padEnd(widths[i])).join('  ');
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

/**
 * OS child processes driven line by line (stdin commands, one JSON answer per stdout
 * line), each in its own process group so a test can kill it and everything it spawned.
 */
import { type ChildProcess, spawn } from 'node:child_process';

export class LineChild {
  readonly #child: ChildProcess;
  readonly #lines: string[] = [];
  readonly #waiters: Array<(line: string) => void> = [];
  #stderr = '';

  constructor(script: string, env: Record<string, string>) {
    this.#child = spawn(process.execPath, [script], {
      env: { ...process.env, ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: true,
    });
    let buffered = '';
    this.#child.stdout?.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      for (let nl = buffered.indexOf('\n'); nl >= 0; nl = buffered.indexOf('\n')) {
        const line = buffered.slice(0, nl);
        buffered = buffered.slice(nl + 1);
        const waiter = this.#waiters.shift();
        if (waiter) waiter(line);
        else this.#lines.push(line);
      }
    });
    this.#child.stderr?.on('data', (chunk: Buffer) => {
      this.#stderr += chunk.toString();
    });
  }

  send(line: string): void {
    this.#child.stdin?.write(`${line}\n`);
  }

  /** The next answer, parsed; rejects after `ms` (naming the child's stderr). */
  next(ms = 20_000): Promise<Record<string, unknown>> {
    const line = this.#lines.shift();
    if (line !== undefined) return Promise.resolve(JSON.parse(line));
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no answer in ${ms} ms; stderr: ${this.#stderr}`)), ms);
      this.#waiters.push((l) => {
        clearTimeout(timer);
        resolve(JSON.parse(l));
      });
    });
  }

  /** Resolves with the exit code once the process exits (or `null` when killed after `ms`). */
  async exit(ms = 10_000): Promise<number | null> {
    if (this.#child.exitCode !== null) return this.#child.exitCode;
    const exited = new Promise<number | null>((resolve) => this.#child.once('exit', (code) => resolve(code)));
    const timer = setTimeout(() => this.kill(), ms);
    return exited.finally(() => clearTimeout(timer));
  }

  /** SIGKILL to the whole process group, if it still runs. */
  kill(): void {
    const pid = this.#child.pid;
    if (this.#child.exitCode === null && this.#child.signalCode === null && pid) {
      try {
        process.kill(-pid, 'SIGKILL');
      } catch {}
    }
  }
}

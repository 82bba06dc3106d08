/**
 * Which modules a piece of code loads: a child Node process runs `code` (an ES module
 * body) under a loader hook that records every URL it resolves. Tests use it to prove a
 * dependency stays unloaded (a lazy optional peer, a separate entry).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const HOOKS = (log: string) => `import { appendFileSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  const out = await next(specifier, context);
  appendFileSync(${JSON.stringify(log)}, out.url + '\\n');
  return out;
}
`;

export interface Resolved {
  /** Every URL resolved, in order, one per entry. */
  readonly urls: string[];
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `code` in a child process from `cwd` and answers the URLs it resolved. */
export function resolvedBy(code: string, cwd: string): Resolved {
  const dir = mkdtempSync(join(tmpdir(), 'colony-resolved-'));
  try {
    const log = join(dir, 'resolved.log');
    const hooks = join(dir, 'hooks.mjs');
    writeFileSync(hooks, HOOKS(log));
    writeFileSync(log, '');
    const register = join(dir, 'register.mjs');
    writeFileSync(
      register,
      `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(hooks).href)});\n`,
    );
    const child = spawnSync(
      process.execPath,
      ['--import', pathToFileURL(register).href, '--input-type=module', '-e', code],
      { cwd, encoding: 'utf8', timeout: 60_000 },
    );
    const urls = readFileSync(log, 'utf8').trim().split('\n').filter(Boolean);
    return { urls, status: child.status, stdout: child.stdout, stderr: child.stderr };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * @module doctor/git
 * The git on PATH: the worktree and merge tools need git 2.20 or newer.
 */
import { execFileSync } from 'node:child_process';
import type { DoctorCheck } from './_check';

export function gitCheck(env: NodeJS.ProcessEnv): DoctorCheck {
  let out: string;
  try {
    out = execFileSync('git', ['--version'], {
      encoding: 'utf8',
      env,
      timeout: 5000,
      stdio: ['ignore', 'pipe', 'ignore'],
    });
  } catch {
    return {
      id: 'git',
      status: 'warn',
      message: 'git is not on PATH',
      fix: 'install git 2.20 or newer (hooks and worktree tools need it)',
    };
  }
  const match = /(\d+)\.(\d+)(?:\.(\d+))?/.exec(out);
  const version = match?.[0] ?? out.trim();
  const recent = match !== null && (Number(match[1]) > 2 || (Number(match[1]) === 2 && Number(match[2]) >= 20));
  return recent
    ? { id: 'git', status: 'ok', message: `git ${version}`, details: { version } }
    : {
        id: 'git',
        status: 'warn',
        message: `git ${version} is older than 2.20`,
        fix: 'upgrade git to 2.20 or newer',
        details: { version },
      };
}
